package dev.synccontext.autoconfigure.live;

import dev.synccontext.live.CloseReason;
import dev.synccontext.live.LiveMessage;
import dev.synccontext.live.LiveTransport;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.messaging.simp.SimpMessageHeaderAccessor;
import org.springframework.messaging.simp.SimpMessageType;
import org.springframework.messaging.simp.SimpMessagingTemplate;

/**
 * A STOMP destination as a {@link LiveTransport}: each message goes to {@link SimpMessagingTemplate} (the
 * user destination of a user, or of one session), with the headers {@code live-id}, {@code live-event} and
 * {@code live-snapshot}; the payload is converted by the template's converter. The template hands it to the
 * broker and on to the client's outbound channel, where Spring bounds each session
 * ({@code ConcurrentWebSocketSessionDecorator}: send time and buffer size limits, set with
 * {@code WebSocketTransportRegistration}); so a write here is always "ready", and this subscriber's buffer is
 * the bound in front of that one.
 */
final class StompTransport implements LiveTransport {

    static final String ID = "live-id";
    static final String EVENT = "live-event";
    static final String SNAPSHOT = "live-snapshot";

    private final SimpMessagingTemplate template;
    private final String user;
    private final @Nullable String sessionId;
    private final String destination;
    private final @Nullable String lastEventId;
    private volatile boolean closed;

    StompTransport(SimpMessagingTemplate template, String user, @Nullable String sessionId, String destination,
            @Nullable String lastEventId) {
        this.template = template;
        this.user = user;
        this.sessionId = sessionId;
        this.destination = destination;
        this.lastEventId = lastEventId;
    }

    @Override
    public @Nullable String lastEventId() {
        return lastEventId;
    }

    @Override
    public boolean ready() {
        if (closed) {
            throw new IllegalStateException("STOMP destination " + destination + " of " + user + " was closed");
        }
        return true;
    }

    @Override
    public boolean write(LiveMessage message) {
        template.convertAndSendToUser(user, destination, message.data(), headers(message));
        return true;
    }

    private Map<String, Object> headers(LiveMessage message) {
        SimpMessageHeaderAccessor accessor = SimpMessageHeaderAccessor.create(SimpMessageType.MESSAGE);
        if (sessionId != null) {
            accessor.setSessionId(sessionId);
        }
        accessor.setNativeHeader(ID, message.id());
        accessor.setNativeHeader(EVENT, message.event());
        accessor.setNativeHeader(SNAPSHOT, Boolean.toString(message.snapshot()));
        accessor.setLeaveMutable(true);
        return accessor.getMessageHeaders();
    }

    @Override
    public void close(CloseReason reason) {
        closed = true; // the STOMP session itself is the client's and Spring's: nothing is sent to it any more
    }
}
