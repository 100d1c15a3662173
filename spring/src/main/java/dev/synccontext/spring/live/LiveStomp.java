package dev.synccontext.spring.live;

import dev.synccontext.live.LiveTransport;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.simp.SimpMessagingTemplate;

/**
 * STOMP destinations as live-channel transports, through the application's {@link SimpMessagingTemplate}.
 * In a {@code @SubscribeMapping} or {@code @MessageMapping} method (a STOMP session's context parameter runs
 * it on that session's context):
 *
 * <pre>{@code
 * @MessageMapping("/board/subscribe")
 * void subscribe(SimpMessageHeaderAccessor headers, RendererSyncContext context) {
 *     context.invokeAsync(() -> board.live().subscribe(
 *             stomp.toSession(headers.getSessionId(), "/queue/board", headers.getFirstNativeHeader("live-last-id"))));
 * }
 * }</pre>
 * The client subscribes to {@code /user/queue/board}. Each message carries the STOMP headers {@code live-id},
 * {@code live-event} and {@code live-snapshot}. A {@link #toSession} subscriber ends with its STOMP session
 * (no need to cancel it on disconnect): as too slow, counted as a slow disconnect, when Spring's send time or
 * buffer limit closed the session; as gone otherwise. See {@link StompTransport} for what bounds a slow STOMP
 * client: Spring's {@code WebSocketTransportRegistration} limits, with or without
 * {@code setPreservePublishOrder(true)}.
 */
public final class LiveStomp {

    private final SimpMessagingTemplate template;
    private final @Nullable MessageChannel clientOutbound;
    /**
     * The open transports of each STOMP session ({@link #toSession}), ended with it ({@link #sessionEnded}). While
     * sessions are tracked ({@link #trackSessions}) a key is an open session, present from its start to its end
     * even with no transport; otherwise a key exists while the session has one.
     */
    private final Map<String, Set<StompTransport>> sessions = new ConcurrentHashMap<>();
    /** Whether {@link #sessionStarted} is called for every session (the starter's listener does it). */
    private volatile boolean tracked;

    /** Transports that cannot send a going-away ERROR frame (no client outbound channel): they only stop. */
    public LiveStomp(SimpMessagingTemplate template) {
        this(template, null);
    }

    /**
     * @param clientOutbound Spring's {@code clientOutboundChannel}, where a session's going-away ERROR frame
     *     goes at shutdown ({@link StompTransport}); null: none is sent
     */
    public LiveStomp(SimpMessagingTemplate template, @Nullable MessageChannel clientOutbound) {
        this.template = Objects.requireNonNull(template, "template");
        this.clientOutbound = clientOutbound;
    }

    /** To every session of {@code user} (a Principal's name) on its user destination {@code destination}. */
    public LiveTransport toUser(String user, String destination, @Nullable String lastEventId) {
        return new StompTransport(template, clientOutbound, user, null, destination, lastEventId, transport -> { });
    }

    /**
     * To one STOMP session only, on its user destination {@code destination} (no Principal needed). When the
     * session has already ended (a handler that ran after its disconnect), the transport is ended already: the
     * subscriber that takes it ends as gone at once, nothing sent. That needs the session's start and end, which
     * the starter's listener reports ({@code SessionConnectEvent}, {@code SessionDisconnectEvent}); a
     * {@code LiveStomp} built by hand without them tells an ended session only by the end it was told of.
     */
    public LiveTransport toSession(String sessionId, String destination, @Nullable String lastEventId) {
        Objects.requireNonNull(sessionId, "sessionId");
        StompTransport transport = new StompTransport(template, clientOutbound, sessionId, sessionId, destination,
                lastEventId, this::forget);
        // One atomic step per key against sessionEnded's remove: the transport is either in the set that the end
        // takes, or finds the session gone.
        Set<StompTransport> open = tracked
                ? sessions.computeIfPresent(sessionId, (id, set) -> add(set, transport))
                : sessions.compute(sessionId, (id, set) -> add(set == null ? ConcurrentHashMap.newKeySet() : set,
                        transport));
        if (open == null) {
            transport.sessionEnded(false);
        }
        return transport;
    }

    private static Set<StompTransport> add(Set<StompTransport> set, StompTransport transport) {
        set.add(transport);
        return set;
    }

    /** From now on, a session is open from {@link #sessionStarted} to {@link #sessionEnded} only. */
    void trackSessions() {
        tracked = true;
    }

    /** Spring started STOMP session {@code sessionId} (its {@code SessionConnectEvent}). */
    void sessionStarted(String sessionId) {
        sessions.putIfAbsent(sessionId, ConcurrentHashMap.newKeySet());
    }

    /** How many sessions this holds an entry for (tests: nothing outlives its session). */
    int sessionEntries() {
        return sessions.size();
    }

    /**
     * Spring ended STOMP session {@code sessionId} (its {@code SessionDisconnectEvent}): the subscribers of its
     * transports end, as too slow ({@code limitExceeded}: Spring closed it for its send time or buffer limit) or
     * as gone. Without this a subscriber would outlive its session, writing to a destination nobody reads.
     */
    void sessionEnded(String sessionId, boolean limitExceeded) {
        Set<StompTransport> ended = sessions.remove(sessionId);
        if (ended != null) {
            ended.forEach(transport -> transport.sessionEnded(limitExceeded));
        }
    }

    private void forget(StompTransport transport) {
        String sessionId = transport.sessionId();
        if (sessionId != null) {
            // A tracked session keeps its key until it ends, transports or not: the key is what says it is open.
            sessions.computeIfPresent(sessionId,
                    (id, open) -> open.remove(transport) && open.isEmpty() && !tracked ? null : open);
        }
    }
}
