package dev.synccontext.spring.websocket;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.beans.factory.annotation.Qualifier;

/**
 * Qualifies an injected {@code RendererSyncContext} as the <b>WebSocket session's</b> context (a proxy,
 * bean {@value #BEAN}), next to the plain injected one, which stays the HTTP session's (or request's):
 *
 * <pre>{@code
 * LiveController(RendererSyncContext page,                                  // the HTTP session's
 *                @WebSocketSessionContext RendererSyncContext channel) {    // the WebSocket session's
 *     ...
 * }
 * }</pre>
 *
 * <p>The proxy resolves, on each call, to the context of the STOMP session whose message is being
 * handled ({@code @MessageMapping}, {@code @SubscribeMapping}, STOMP session event listeners), or of the
 * plain WebSocket session whose {@link SyncContextWebSocketHandler} runs the call, or, inside one
 * of these contexts' callbacks, to that very context. Anywhere else it throws
 * {@code IllegalStateException}. The bean is not a default candidate: without this qualifier, injection
 * by type never picks it.
 */
@Target({ ElementType.FIELD, ElementType.PARAMETER, ElementType.METHOD, ElementType.TYPE,
        ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Qualifier
public @interface WebSocketSessionContext {

    /** Name of the qualified proxy bean. */
    String BEAN = "webSocketRendererSyncContext";
}
