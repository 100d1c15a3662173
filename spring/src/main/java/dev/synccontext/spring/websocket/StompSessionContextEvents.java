package dev.synccontext.spring.websocket;

import java.util.Map;
import java.util.function.Consumer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.event.SmartApplicationListener;
import org.springframework.core.Ordered;
import org.springframework.messaging.simp.SimpMessageHeaderAccessor;
import org.springframework.web.socket.messaging.AbstractSubProtocolEvent;
import org.springframework.web.socket.messaging.SessionConnectEvent;
import org.springframework.web.socket.messaging.SessionDisconnectEvent;

/**
 * Opens a STOMP session's context on CONNECT and releases it when the session ends.
 *
 * <p>Spring publishes {@link SessionConnectEvent} on the thread that reads the session's socket, before
 * it reads the next frame, so the context exists before any later frame of the session is handled.
 * {@link SessionDisconnectEvent} comes for a DISCONNECT frame and when the socket closes, cleanly or not
 * (sometimes both for one session: releasing is idempotent).
 *
 * <p>Two listeners with opposite orders: opening runs first ({@link Ordered#HIGHEST_PRECEDENCE}), so the
 * application's CONNECT listeners find the context; releasing runs with {@link Ordered#LOWEST_PRECEDENCE},
 * after every DISCONNECT listener that declares a higher precedence ({@code @Order(0)}, for example). Such a
 * listener can still post work to the session's context, and that work runs (the release is graceful);
 * an unordered listener may run after the release and is then refused.
 */
public final class StompSessionContextEvents {

    private static final Log LOG = LogFactory.getLog(StompSessionContextEvents.class);

    private StompSessionContextEvents() {
    }

    public static SmartApplicationListener opener(WebSocketSessionContexts contexts) {
        return new Listener(SessionConnectEvent.class, Ordered.HIGHEST_PRECEDENCE, contexts::open);
    }

    public static SmartApplicationListener releaser(WebSocketSessionContexts contexts) {
        return new Listener(SessionDisconnectEvent.class, Ordered.LOWEST_PRECEDENCE, contexts::release);
    }

    private record Listener(Class<? extends AbstractSubProtocolEvent> type, int order,
            Consumer<Map<String, Object>> action) implements SmartApplicationListener {

        @Override
        public boolean supportsEventType(Class<? extends ApplicationEvent> eventType) {
            return type.isAssignableFrom(eventType);
        }

        @Override
        public void onApplicationEvent(ApplicationEvent event) {
            AbstractSubProtocolEvent stomp = (AbstractSubProtocolEvent) event;
            Map<String, Object> attributes = SimpMessageHeaderAccessor.getSessionAttributes(
                    stomp.getMessage().getHeaders());
            if (attributes == null) {
                LOG.warn(type.getSimpleName() + " without session attributes; its session gets no context: " + event);
                return;
            }
            action.accept(attributes);
        }

        @Override
        public int getOrder() {
            return order;
        }
    }
}
