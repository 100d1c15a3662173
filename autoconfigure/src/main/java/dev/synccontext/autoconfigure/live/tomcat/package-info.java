/**
 * Boot's wiring of embedded Tomcat's per-connection buffers for live streams ({@code synccontext.live.tomcat.*}):
 * a long-lived SSE stream keeps its connection's buffers for as long as it is open, so they, not the
 * application, are most of a live session's heap.
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.autoconfigure.live.tomcat;

import org.jspecify.annotations.NullMarked;
