/**
 * Boot's wiring of session contexts (the library's {@code dev.synccontext.spring.session}): the registry of
 * this node's session contexts, its idle eviction and node id from {@code synccontext.session.*}, the releasing
 * listeners, and the injected {@code rendererSyncContext}.
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.autoconfigure.session;

import org.jspecify.annotations.NullMarked;
