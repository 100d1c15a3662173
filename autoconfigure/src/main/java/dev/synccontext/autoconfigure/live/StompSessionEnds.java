package dev.synccontext.autoconfigure.live;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.event.SmartApplicationListener;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.messaging.SessionDisconnectEvent;

/**
 * Ends a STOMP session's live subscribers when Spring ends the session ({@link SessionDisconnectEvent}: a
 * DISCONNECT frame, a closed socket, or Spring's own send time or buffer limit, which publishes the event with
 * {@link CloseStatus#SESSION_NOT_RELIABLE} before it closes the socket).
 */
final class StompSessionEnds implements SmartApplicationListener {

    private final LiveStomp stomp;

    StompSessionEnds(LiveStomp stomp) {
        this.stomp = stomp;
    }

    @Override
    public boolean supportsEventType(Class<? extends ApplicationEvent> eventType) {
        return SessionDisconnectEvent.class.isAssignableFrom(eventType);
    }

    @Override
    public void onApplicationEvent(ApplicationEvent event) {
        SessionDisconnectEvent disconnect = (SessionDisconnectEvent) event;
        stomp.sessionEnded(disconnect.getSessionId(),
                disconnect.getCloseStatus().getCode() == CloseStatus.SESSION_NOT_RELIABLE.getCode());
    }
}
