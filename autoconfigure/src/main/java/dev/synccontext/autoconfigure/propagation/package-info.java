/**
 * Boot's wiring of context propagation (the library's {@code dev.synccontext.spring.propagation}): the
 * decorator that restores the submitter's thread-locals around a queued callback, and an application's
 * {@code TaskDecorator} applied the same way.
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.autoconfigure.propagation;

import org.jspecify.annotations.NullMarked;
