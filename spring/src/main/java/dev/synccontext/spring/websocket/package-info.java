/**
 * WebSocket and STOMP sessions: one context per WebSocket session, opened when it connects and released when it
 * closes ({@link dev.synccontext.spring.websocket.WebSocketSessionContexts}); a {@code RendererSyncContext}
 * parameter of {@code @MessageMapping} methods, {@code @OnContext} STOMP methods run on their session's context in
 * arrival order ({@code StompFramesOnContext}, deciding with
 * {@code OnContextMappings}), {@code @WebSocketSessionContext} injection, and
 * {@link dev.synccontext.spring.websocket.SyncContextWebSocketHandler} for plain WebSocket handlers.
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.spring.websocket;

import org.jspecify.annotations.NullMarked;
