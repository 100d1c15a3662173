/**
 * Spring Boot auto-configuration for {@link dev.synccontext.RendererSyncContext}, root wiring: the
 * {@link dev.synccontext.registry.SyncContextRegistry} every context is built by, its properties
 * ({@code synccontext.*}) and executor, and the injected proxy type
 * ({@link dev.synccontext.spring.ScopedSyncContext}). Each part lives in a package of its own, with its
 * own auto-configuration: {@code session} (HTTP and Web sessions, release, idle eviction, the injected
 * context), {@code websocket} (WebSocket and STOMP), {@code webflux}, {@code mvc}, {@code propagation},
 * {@code metrics} and {@code endpoint}.
 *
 * <p>Null-marked (JSpecify, as Spring Framework 7 and Boot 4 are): nothing here accepts or returns
 * {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.autoconfigure;

import org.jspecify.annotations.NullMarked;
