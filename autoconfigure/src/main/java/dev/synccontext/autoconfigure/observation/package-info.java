/**
 * Boot's wiring of the observations of queued work (the library's {@code dev.synccontext.spring.observation}),
 * switched on by {@code synccontext.observations.enabled}.
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.autoconfigure.observation;

import org.jspecify.annotations.NullMarked;
