/**
 * Drain on shutdown, inside Spring Boot's lifecycle: a {@code SmartLifecycle} that stops before the web
 * server's graceful shutdown and runs the core's {@link dev.synccontext.registry.ShutdownDrain}: readiness
 * {@code REFUSING_TRAFFIC}, new callbacks refused with their reason, accepted ones finished up to
 * {@code synccontext.shutdown-timeout}, every live subscriber told to go away at
 * {@code synccontext.live.shutdown-pace}; then {@link dev.synccontext.spring.shutdown.ShutdownCompletedEvent}
 * with the counts.
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.autoconfigure.shutdown;

import org.jspecify.annotations.NullMarked;
