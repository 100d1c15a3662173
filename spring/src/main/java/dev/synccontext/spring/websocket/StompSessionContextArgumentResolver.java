package dev.synccontext.spring.websocket;

import dev.synccontext.RendererSyncContext;
import java.util.Map;
import org.springframework.core.MethodParameter;
import org.springframework.messaging.Message;
import org.springframework.messaging.handler.invocation.HandlerMethodArgumentResolver;
import org.springframework.messaging.simp.SimpMessageHeaderAccessor;

/**
 * Resolves a {@link RendererSyncContext} parameter of a {@code @MessageMapping} or {@code @SubscribeMapping}
 * method to the context of the STOMP session that sent the message: the same context for every frame of
 * that session, whichever pool thread handles it.
 *
 * <p>Spring handles a STOMP session's frames concurrently on the inbound channel's pool, so a handler
 * that changes per-session state does it in {@code context.invokeAsync(...)}, or is
 * {@link dev.synccontext.spring.handler.OnContext @OnContext} and already runs on the context
 * ({@link StompFramesOnContext}). After the session ended,
 * the parameter is its closed context, which refuses the work ({@code RejectedExecutionException} in the
 * returned future). A message without a connected session (no CONNECT yet) fails with a message that says so.
 *
 * @param contexts the WebSocket sessions' contexts, found by the session's attributes
 */
public record StompSessionContextArgumentResolver(WebSocketSessionContexts contexts)
        implements HandlerMethodArgumentResolver {

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType() == RendererSyncContext.class
                && !parameter.hasParameterAnnotation(HttpSessionContext.class);
    }

    @Override
    public Object resolveArgument(MethodParameter parameter, Message<?> message) {
        Map<String, Object> attributes = SimpMessageHeaderAccessor.getSessionAttributes(message.getHeaders());
        if (attributes == null) {
            throw new IllegalStateException("Message has no STOMP session attributes, so it has no session context: "
                    + parameter.getExecutable().toGenericString());
        }
        return contexts.require(attributes);
    }
}
