/**
 * Spring MVC: a controller's already-completed {@code CompletableFuture} (an inline {@code invokeAsync}) is
 * written at once, without an async dispatch.
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.autoconfigure.mvc;

import org.jspecify.annotations.NullMarked;
