package dev.synccontext.spring.live;

import dev.synccontext.live.CloseReason;
import dev.synccontext.live.LiveMessage;
import dev.synccontext.live.LiveSubscriber;
import dev.synccontext.live.LiveTransport;
import java.util.Map;
import java.util.function.Consumer;
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
 * the bound in front of that one. Those limits apply with {@code setPreservePublishOrder(true)} too: Spring
 * then releases a session's next message once the previous one is in the decorator's buffer
 * ({@code LiveStompStalledClientTest} measures both modes).
 *
 * <p>A transport of one session ends its subscriber when Spring ends that session ({@link #sessionEnded}, from
 * the {@code SessionDisconnectEvent}): {@link LiveSubscriber#tooSlow()} when Spring closed it for its send time
 * or buffer limit (counted as a slow disconnect), {@link LiveSubscriber#gone} otherwise.
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
    private final Consumer<StompTransport> onClose;
    private volatile boolean ended;
    private volatile @Nullable LiveSubscriber subscriber;

    /** @param onClose called once this transport is closed (the session index forgets it) */
    StompTransport(SimpMessagingTemplate template, @Nullable MessageChannel clientOutbound, String user,
            @Nullable String sessionId, String destination, @Nullable String lastEventId,
            Consumer<StompTransport> onClose) {
        this.template = template;
        this.clientOutbound = clientOutbound;
        this.user = user;
        this.sessionId = sessionId;
        this.destination = destination;
        this.lastEventId = lastEventId;
        this.onClose = onClose;
    }

    @Override
    public void attach(LiveSubscriber subscriber) {
        this.subscriber = subscriber;
    }

    /** The one STOMP session of this transport, or {@code null} for a user's (all its sessions). */
    @Nullable String sessionId() {
        return sessionId;
    }

    /**
     * Spring ended this transport's session: the subscriber ends, as too slow when Spring's send time or buffer
     * limit closed the session ({@code limitExceeded}), as gone otherwise.
     */
    void sessionEnded(boolean limitExceeded) {
        LiveSubscriber attached = subscriber;
        if (attached != null) {
            // Ended before ready() refuses: a drain that saw the refusal first would end it as gone.
            if (limitExceeded) {
                attached.tooSlow();
            } else {
                attached.gone(null);
            }
        }
        ended = true; // a subscriber attached from now on fails its first ready() and ends as gone
    }

    @Override
    public @Nullable String lastEventId() {
        return lastEventId;
    }

    @Override
    public boolean ready() {
        if (ended) {
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
        ended = true; // the STOMP session itself is the client's and Spring's: nothing is sent to it any more
        onClose.accept(this);
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
