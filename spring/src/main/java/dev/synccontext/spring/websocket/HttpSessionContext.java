package dev.synccontext.spring.websocket;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@code RendererSyncContext} parameter of a {@code @MessageMapping} or {@code @SubscribeMapping}
 * method as the context of the HTTP session the STOMP session was opened from (the user's session context,
 * with its {@code @ContextScoped} beans), instead of the STOMP session's own context.
 *
 * <p>Reached through the handshake: the starter adds a handshake interceptor to every WebSocket and SockJS
 * endpoint that copies the HTTP session's context handle into the WebSocket session's attributes
 * ({@link HttpSessionHandshakes}). A socket opened without an HTTP session (no session cookie) has none, and
 * the call fails with a message saying so rather than fall back to another context.
 */
@Target(ElementType.PARAMETER)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface HttpSessionContext {
}
