package dev.synccontext.autoconfigure.live;

import dev.synccontext.live.CloseReason;
import dev.synccontext.live.LiveMessage;
import dev.synccontext.live.LiveTransport;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.simp.SimpMessageHeaderAccessor;
import org.springframework.messaging.simp.SimpMessageType;
import org.springframework.messaging.simp.SimpMessagingTemplate;
import org.springframework.messaging.simp.stomp.StompCommand;
import org.springframework.messaging.simp.stomp.StompHeaderAccessor;
import org.springframework.messaging.support.MessageBuilder;

/**
 * A STOMP destination as a {@link LiveTransport}: each message goes to {@link SimpMessagingTemplate} (the
 * user destination of a user, or of one session), with the headers {@code live-id}, {@code live-event} and
 * {@code live-snapshot}; the payload is converted by the template's converter. The template hands it to the
 * broker and on to the client's outbound channel, where Spring bounds each session
 * ({@code ConcurrentWebSocketSessionDecorator}: send time and buffer size limits, set with
 * {@code WebSocketTransportRegistration}); so a write here is always "ready", and this subscriber's buffer is
 * the bound in front of that one.
 *
 * <p>Going away ({@link CloseReason#GOING_AWAY}, the server shuts down): a transport of one session sends that
 * session an ERROR frame (header {@code live-event: going-away}, message "going away") straight to the
 * client outbound channel, after which Spring's STOMP handler closes the WebSocket; a transport of a user
 * (all its sessions) only stops, since those sessions are not this channel's alone.
 */
final class StompTransport implements LiveTransport {

    static final String ID = "live-id";
    static final String EVENT = "live-event";
    static final String SNAPSHOT = "live-snapshot";

    private final SimpMessagingTemplate template;
    private final @Nullable MessageChannel clientOutbound;
    private final String user;
    private final @Nullable String sessionId;
    private final String destination;
    private final @Nullable String lastEventId;
    private volatile boolean closed;

    StompTransport(SimpMessagingTemplate template, @Nullable MessageChannel clientOutbound, String user,
            @Nullable String sessionId, String destination, @Nullable String lastEventId) {
        this.template = template;
        this.clientOutbound = clientOutbound;
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
        if (reason == CloseReason.GOING_AWAY && sessionId != null && clientOutbound != null) {
            StompHeaderAccessor error = StompHeaderAccessor.create(StompCommand.ERROR);
            error.setSessionId(sessionId);
            error.setMessage("going away: the server is shutting down; reconnect");
            error.setNativeHeader(EVENT, LiveFrames.GOING_AWAY_EVENT);
            try {
                clientOutbound.send(MessageBuilder.createMessage(new byte[0], error.getMessageHeaders()));
            } catch (RuntimeException gone) {
                // The session or the channel is gone already: the client is disconnected either way.
            }
        }
    }
}
