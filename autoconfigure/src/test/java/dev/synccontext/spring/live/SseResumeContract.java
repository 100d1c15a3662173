package dev.synccontext.spring.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.testing.Browser;
import dev.synccontext.testing.SseClient;
import java.time.Duration;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * What a reconnect with {@code Last-Event-ID} gets on either web stack, over real HTTP: the events it missed,
 * once and in order, while the replay buffer (100 events) still holds them; past it, one snapshot and everything
 * after. Each stack's test supplies a {@link CountingBoard} application ({@code /events}, {@code /change}).
 */
abstract class SseResumeContract {

    private static final Duration WAIT = Duration.ofSeconds(10);

    /** The board of a new session, which {@code tab} opens. */
    abstract CountingBoard newSessionBoard(Browser tab);

    /** Changes {@code tab}'s board {@code times} times, answered. */
    abstract void change(Browser tab, int times);

    /** Waits until the server has seen the board's only tab go. */
    abstract void awaitTabGone(Browser tab, CountingBoard board);

    @Test
    void aReconnectWithLastEventIdGetsTheEventsItMissedOnceAndInOrder(Browser tab) throws Exception {
        CountingBoard board = newSessionBoard(tab);
        String lastId;
        try (SseClient first = new SseClient(tab.httpClient(), tab.uri("/events"), null, null)) {
            change(tab, 10);
            await().atMost(WAIT).until(() -> first.events.size() == 11);
            lastId = first.last().id();
            assertThat(first.last().sequence()).isEqualTo(10);
        }
        awaitTabGone(tab, board);
        change(tab, 20);
        long missedUpTo = board.live.lastSequence();
        try (SseClient back = new SseClient(tab.httpClient(), tab.uri("/events"), null, lastId)) {
            change(tab, 5);
            await().atMost(WAIT).until(() -> back.last() != null && back.last().sequence() == missedUpTo + 5);
            assertThat(back.sequences()).as("every event after %s exactly once, in order", lastId)
                    .containsExactlyElementsOf(LongStream.rangeClosed(11, missedUpTo + 5).boxed().toList());
            assertThat(back.events).noneMatch(event -> event.event().equals("snapshot"));
        }
    }

    @Test
    void aReconnectPastTheReplayBufferGetsOneSnapshotAndContinuesFromIt(Browser tab) throws Exception {
        CountingBoard board = newSessionBoard(tab);
        String lastId;
        try (SseClient first = new SseClient(tab.httpClient(), tab.uri("/events"), null, null)) {
            await().atMost(WAIT).until(() -> first.events.size() == 1);
            lastId = first.last().id();
        }
        awaitTabGone(tab, board);
        change(tab, 150); // the replay buffer keeps 100
        long at = board.live.lastSequence();
        try (SseClient back = new SseClient(tab.httpClient(), tab.uri("/events"), null, lastId)) {
            await().atMost(WAIT).until(() -> back.events.size() == 1);
            change(tab, 3);
            await().atMost(WAIT).until(() -> back.events.size() == 4);
            assertThat(back.events.get(0).event()).isEqualTo("snapshot");
            assertThat(back.events.get(0).data()).contains("\"counter\":" + at);
            assertThat(back.sequences()).containsExactly(at, at + 1, at + 2, at + 3);
        }
    }
}
