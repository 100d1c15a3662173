package dev.synccontext.spring.websocket;

import dev.synccontext.RendererSyncContext;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectFactory;
import org.springframework.messaging.simp.SimpAttributes;
import org.springframework.messaging.simp.SimpAttributesContextHolder;
import org.springframework.util.ClassUtils;

/**
 * Finds the WebSocket session's context for the {@link WebSocketSessionContext @WebSocketSessionContext}
 * proxy when the thread runs none of its callbacks (that case the proxy answers itself): the STOMP session
 * whose message this thread handles, which Spring binds to the thread as {@link SimpAttributes}.
 */
public final class CurrentWebSocketSessionContext implements ObjectFactory<RendererSyncContext> {

    private static final boolean STOMP = ClassUtils.isPresent(
            "org.springframework.messaging.simp.SimpAttributesContextHolder",
            CurrentWebSocketSessionContext.class.getClassLoader());

    @Override
    public RendererSyncContext getObject() {
        if (STOMP) {
            RendererSyncContext context = Stomp.current();
            if (context != null) {
                return context;
            }
        }
        throw new IllegalStateException("No WebSocket session on this thread: the @WebSocketSessionContext"
                + " RendererSyncContext resolves while a STOMP message of a connected session is handled"
                + " (@MessageMapping, @SubscribeMapping, session event listeners), inside a WebSocketHandler"
                + " wrapped in SyncContextWebSocketHandler, and inside the callbacks of those contexts."
                + " Elsewhere, keep the context itself: registry.resolve(proxy) while the session is current.");
    }

    /** Touches spring-messaging only when it is on the class path. */
    private static final class Stomp {
        static @Nullable RendererSyncContext current() {
            SimpAttributes attributes = SimpAttributesContextHolder.getAttributes();
            return attributes != null && attributes.getAttribute(WebSocketSessionContexts.ATTRIBUTE)
                    instanceof RendererSyncContext context ? context : null;
        }
    }
}
