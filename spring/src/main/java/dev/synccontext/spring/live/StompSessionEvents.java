package dev.synccontext.spring.live;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.event.SmartApplicationListener;
import org.springframework.messaging.simp.SimpMessageHeaderAccessor;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.messaging.SessionConnectEvent;
import org.springframework.web.socket.messaging.SessionDisconnectEvent;

/**
 * Tells {@link LiveStomp} which STOMP sessions are open: a session starts with its CONNECT frame
 * ({@link SessionConnectEvent}, published before any frame of the session reaches a message handler, so before
 * anything can ask for its transport) and ends when Spring ends it ({@link SessionDisconnectEvent}: a DISCONNECT
 * frame, a closed socket, or Spring's own send time or buffer limit, which publishes the event with
 * {@link CloseStatus#SESSION_NOT_RELIABLE} before it closes the socket). Its subscribers end with it, and a
 * transport asked for after the session ended (a handler queued behind the disconnect) is ended at once.
 */
public final class StompSessionEvents implements SmartApplicationListener {

    private final LiveStomp stomp;

    public StompSessionEvents(LiveStomp stomp) {
        this.stomp = stomp;
        stomp.trackSessions();
    }

    @Override
    public boolean supportsEventType(Class<? extends ApplicationEvent> eventType) {
        return SessionConnectEvent.class.isAssignableFrom(eventType)
                || SessionDisconnectEvent.class.isAssignableFrom(eventType);
    }

    @Override
    public void onApplicationEvent(ApplicationEvent event) {
        if (event instanceof SessionDisconnectEvent disconnect) {
            stomp.sessionEnded(disconnect.getSessionId(),
                    disconnect.getCloseStatus().getCode() == CloseStatus.SESSION_NOT_RELIABLE.getCode());
        } else if (event instanceof SessionConnectEvent connect) {
            String sessionId = SimpMessageHeaderAccessor.getSessionId(connect.getMessage().getHeaders());
            if (sessionId != null) {
                stomp.sessionStarted(sessionId);
            }
        }
    }
}
