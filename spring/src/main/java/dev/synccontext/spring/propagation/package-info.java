/**
 * Context propagation for queued callbacks: thread-locals of the thread that queued a callback (MDC,
 * observations, security, an application's {@code TaskDecorator}) are restored around it when it runs
 * later on a pool thread.
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.spring.propagation;

import org.jspecify.annotations.NullMarked;
