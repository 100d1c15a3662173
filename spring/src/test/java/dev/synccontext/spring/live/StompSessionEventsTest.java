package dev.synccontext.spring.live;


import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.live.CloseReason;
import dev.synccontext.live.LiveChannel;
import dev.synccontext.live.LiveStatistics;
import dev.synccontext.live.LiveSubscriber;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.simp.SimpMessageHeaderAccessor;
import org.springframework.messaging.simp.SimpMessageType;
import org.springframework.messaging.simp.SimpMessagingTemplate;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.messaging.SessionConnectEvent;
import org.springframework.web.socket.messaging.SessionDisconnectEvent;

/**
 * A STOMP session's subscribers end with the session ({@link StompSessionEvents} on Spring's
 * {@link SessionConnectEvent} and {@link SessionDisconnectEvent}), without Spring's web stack: too slow and counted
 * when Spring's limits closed it, gone otherwise; other sessions' subscribers are left alone; a transport asked for
 * after its session ended (or for a session that never connected) is ended at once, and nothing outlives its
 * session, also when the end races the subscribe.
 */
class StompSessionEventsTest {

    private final List<Message<?>> sent = new CopyOnWriteArrayList<>();
    private final MessageChannel broker = (message, timeout) -> sent.add(message);
    private final LiveStomp stomp = new LiveStomp(new SimpMessagingTemplate(broker));
    private final StompSessionEvents ends = new StompSessionEvents(stomp);
    private final LiveStatistics statistics = new LiveStatistics("websocket");
    private final LiveChannel live = LiveChannel.builder("board").executor(Runnable::run).statistics(statistics)
            .build(() -> "snapshot");

    @Test
    void aSessionClosedBySpringsLimitsEndsItsSubscribersAsTooSlowCounted() {
        ends.onApplicationEvent(connect("s1"));
        ends.onApplicationEvent(connect("s2"));
        LiveSubscriber slow = live.subscribe(stomp.toSession("s1", "/topic/board", null));
        LiveSubscriber other = live.subscribe(stomp.toSession("s2", "/topic/board", null));
        assertThat(sent).as("each got its snapshot through the template").hasSize(2);

        ends.onApplicationEvent(disconnect("s1", CloseStatus.SESSION_NOT_RELIABLE));

        assertThat(slow.closeReason()).isEqualTo(CloseReason.TOO_SLOW);
        assertThat(statistics.slowDisconnects()).isEqualTo(1);
        assertThat(other.isOpen()).as("another session's subscriber").isTrue();
        assertThat(live.subscribers()).containsExactly(other);
        assertThat(statistics.subscribers()).isEqualTo(1);
    }

    @Test
    void aSessionThatEndsAnyOtherWayEndsItsSubscribersAsGoneOnceForRepeatedEvents() {
        ends.onApplicationEvent(connect("s1"));
        LiveSubscriber first = live.subscribe(stomp.toSession("s1", "/topic/board", null));
        LiveSubscriber second = live.subscribe(stomp.toSession("s1", "/topic/other", null));

        ends.onApplicationEvent(disconnect("s1", CloseStatus.NORMAL)); // the DISCONNECT frame
        ends.onApplicationEvent(disconnect("s1", CloseStatus.GOING_AWAY)); // then the socket's close

        assertThat(first.closeReason()).isEqualTo(CloseReason.GONE);
        assertThat(second.closeReason()).isEqualTo(CloseReason.GONE);
        assertThat(statistics.slowDisconnects()).isZero();
        assertThat(live.subscribers()).isEmpty();
    }

    @Test
    void aSubscriberCancelledBeforeItsSessionEndsIsForgottenAndNotCounted() {
        ends.onApplicationEvent(connect("s1"));
        LiveSubscriber cancelled = live.subscribe(stomp.toSession("s1", "/topic/board", null));
        cancelled.cancel();
        LiveSubscriber again = live.subscribe(stomp.toSession("s1", "/topic/board", null));
        assertThat(again.isOpen()).as("the session is still open after its only transport was cancelled").isTrue();
        ends.onApplicationEvent(disconnect("s1", CloseStatus.SESSION_NOT_RELIABLE));
        assertThat(cancelled.closeReason()).isEqualTo(CloseReason.CANCELLED);
        assertThat(again.closeReason()).isEqualTo(CloseReason.TOO_SLOW);
        assertThat(statistics.slowDisconnects()).isOne();
        assertThat(stomp.sessionEntries()).isZero();
    }

    @Test
    void aTransportAskedForAfterItsSessionEndedIsEndedAtOnceAndSendsNothing() {
        ends.onApplicationEvent(connect("s1"));
        ends.onApplicationEvent(disconnect("s1", CloseStatus.GOING_AWAY));
        // A @MessageMapping handler queued on the session's context runs after the disconnect:
        LiveSubscriber late = live.subscribe(stomp.toSession("s1", "/topic/board", null));
        assertThat(late.closeReason()).isEqualTo(CloseReason.GONE);
        assertThat(sent).as("not even its snapshot").isEmpty();
        assertThat(live.subscribers()).isEmpty();
        assertThat(stomp.sessionEntries()).as("nothing kept for the ended session").isZero();
    }

    @Test
    void aSessionThatNeverConnectedGetsAnEndedTransport() {
        LiveSubscriber unknown = live.subscribe(stomp.toSession("nobody", "/topic/board", null));
        assertThat(unknown.closeReason()).isEqualTo(CloseReason.GONE);
        assertThat(sent).isEmpty();
        assertThat(stomp.sessionEntries()).isZero();
    }

    /**
     * The premise: a {@code LiveStomp} nobody reports sessions to (built by hand, no listener) cannot tell an ended
     * session from an open one; its transport for an ended session stays open until that session's end is reported,
     * which never comes again. What the listener's tracking closes.
     */
    @Test
    void withoutTheListenerALateTransportStaysOpen() {
        LiveStomp untracked = new LiveStomp(new SimpMessagingTemplate(broker));
        untracked.sessionEnded("s1", false); // the end, before the handler asks
        LiveSubscriber late = live.subscribe(untracked.toSession("s1", "/topic/board", null));
        assertThat(late.isOpen()).isTrue();
        assertThat(untracked.sessionEntries()).isOne();
    }

    @Test
    void anEndRacingASubscribeNeverLeavesASubscriberOrAnEntryBehind() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 20_000; round++) {
                String session = "race-" + round;
                ends.onApplicationEvent(connect(session));
                CyclicBarrier start = new CyclicBarrier(2);
                Future<LiveSubscriber> subscribed = pool.submit(() -> {
                    start.await();
                    return live.subscribe(stomp.toSession(session, "/topic/board", null));
                });
                Future<?> ended = pool.submit(() -> {
                    start.await();
                    ends.onApplicationEvent(disconnect(session, CloseStatus.GOING_AWAY));
                    return null;
                });
                ended.get(10, TimeUnit.SECONDS);
                LiveSubscriber subscriber = subscribed.get(10, TimeUnit.SECONDS);
                assertThat(subscriber.isOpen()).as("round %d: a subscriber outlived its session", round).isFalse();
                assertThat(subscriber.closeReason()).isEqualTo(CloseReason.GONE);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(live.subscribers()).isEmpty();
        assertThat(stomp.sessionEntries()).isZero();
    }

    @Test
    void anEndBySpringsLimitsRacingTheDrainStillEndsTheSubscriberAsTooSlow() throws Exception {
        ExecutorService drains = Executors.newSingleThreadExecutor();
        ExecutorService publisher = Executors.newSingleThreadExecutor();
        LiveChannel busy = LiveChannel.builder("busy").executor(drains).statistics(statistics)
                .build(() -> "snapshot");
        int rounds = 2_000;
        try {
            for (int round = 0; round < rounds; round++) {
                String session = "limit-" + round;
                ends.onApplicationEvent(connect(session));
                LiveSubscriber subscriber = busy.subscribe(stomp.toSession(session, "/topic/board", null));
                CyclicBarrier start = new CyclicBarrier(2);
                Future<?> publishing = publisher.submit(() -> {
                    start.await();
                    // Keeps the drain asking the transport whether it is ready while the session ends.
                    while (subscriber.isOpen()) {
                        busy.publish("change", "x");
                    }
                    return null;
                });
                start.await();
                ends.onApplicationEvent(disconnect(session, CloseStatus.SESSION_NOT_RELIABLE));
                publishing.get(10, TimeUnit.SECONDS);
                assertThat(subscriber.closeReason()).as("round %d", round).isEqualTo(CloseReason.TOO_SLOW);
            }
        } finally {
            publisher.shutdownNow();
            drains.shutdownNow();
        }
        assertThat(statistics.slowDisconnects()).isEqualTo(rounds);
    }

    private SessionConnectEvent connect(String sessionId) {
        SimpMessageHeaderAccessor headers = SimpMessageHeaderAccessor.create(SimpMessageType.CONNECT);
        headers.setSessionId(sessionId);
        return new SessionConnectEvent(this, MessageBuilder.createMessage(new byte[0], headers.getMessageHeaders()));
    }

    private SessionDisconnectEvent disconnect(String sessionId, CloseStatus status) {
        return new SessionDisconnectEvent(this, MessageBuilder.withPayload(new byte[0]).build(), sessionId, status);
    }
}
