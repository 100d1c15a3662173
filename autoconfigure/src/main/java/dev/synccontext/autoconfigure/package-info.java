/**
 * Spring Boot auto-configuration for {@link dev.synccontext.RendererSyncContext}: a context per HTTP
 * session, request or WebSocket session as a scoped bean, the
 * {@link dev.synccontext.autoconfigure.RendererSyncContextRegistry} for contexts of your own keys,
 * Micrometer metrics, context propagation and the {@code synccontext} actuator endpoint (read-only by
 * default; its benchmark POST needs {@code synccontext-scenarios} and
 * {@code management.endpoint.synccontext.access=unrestricted}). Properties: {@code synccontext.*}.
 *
 * <p>Null-marked (JSpecify, as Spring Framework 7 and Boot 4 are): nothing here accepts or returns
 * {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.autoconfigure;

import org.jspecify.annotations.NullMarked;
