/**
 * What an application meets while it shuts down: {@link dev.synccontext.spring.shutdown.ShuttingDownRefusals}
 * tells a refusal because the application is shutting down (answered 503 with {@code Connection: close} by the
 * MVC and WebFlux parts) from any other, and {@link dev.synccontext.spring.shutdown.ShutdownCompletedEvent} says
 * what the shutdown drain did. The drain itself is core's {@link dev.synccontext.registry.ShutdownDrain}, run in
 * Boot's lifecycle by the auto-configuration.
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.spring.shutdown;

import org.jspecify.annotations.NullMarked;
