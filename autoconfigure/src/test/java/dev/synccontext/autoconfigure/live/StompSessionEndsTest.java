package dev.synccontext.autoconfigure.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.live.CloseReason;
import dev.synccontext.live.LiveChannel;
import dev.synccontext.live.LiveStatistics;
import dev.synccontext.live.LiveSubscriber;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.simp.SimpMessagingTemplate;
import org.springframework.messaging.support.MessageBuilder;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.messaging.SessionDisconnectEvent;

/**
 * A STOMP session's subscribers end with the session ({@link StompSessionEnds} on Spring's
 * {@link SessionDisconnectEvent}), without Spring's web stack: too slow and counted when Spring's limits closed it,
 * gone otherwise; other sessions' subscribers are left alone.
 */
class StompSessionEndsTest {

    private final List<Message<?>> sent = new CopyOnWriteArrayList<>();
    private final MessageChannel broker = (message, timeout) -> sent.add(message);
    private final LiveStomp stomp = new LiveStomp(new SimpMessagingTemplate(broker));
    private final StompSessionEnds ends = new StompSessionEnds(stomp);
    private final LiveStatistics statistics = new LiveStatistics("websocket");
    private final LiveChannel live = LiveChannel.builder("board").executor(Runnable::run).statistics(statistics)
            .build(() -> "snapshot");

    @Test
    void aSessionClosedBySpringsLimitsEndsItsSubscribersAsTooSlowCounted() {
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
        LiveSubscriber cancelled = live.subscribe(stomp.toSession("s1", "/topic/board", null));
        cancelled.cancel();
        ends.onApplicationEvent(disconnect("s1", CloseStatus.SESSION_NOT_RELIABLE));
        assertThat(cancelled.closeReason()).isEqualTo(CloseReason.CANCELLED);
        assertThat(statistics.slowDisconnects()).isZero();
    }

    private SessionDisconnectEvent disconnect(String sessionId, CloseStatus status) {
        return new SessionDisconnectEvent(this, MessageBuilder.withPayload(new byte[0]).build(), sessionId, status);
    }
}
