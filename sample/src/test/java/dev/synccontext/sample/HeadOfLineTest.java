package dev.synccontext.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import dev.synccontext.live.LiveSubscriber;
import dev.synccontext.testing.StalledSocket;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.synccontext.sample.BoardClient.Reply;

/**
 * The head-of-line rule on the sample (a measurement turned into a test): one session with a tab
 * whose client stopped reading and a healthy tab that clicks +1. Before the board pushed through its live
 * channel, the session's clicks stopped answering once the stalled tab's socket buffers were full (the write
 * inside the click's callback blocked); now every click answers, the healthy tab sees the final counter, and
 * the stalled tab holds only the latest board.
 */
@SampleServerTest
@Tag("scale")
class HeadOfLineTest {

    /** Far more than the socket buffers hold (about 1 KB per board; Linux lets them grow to a few MB). */
    static final int MAX_CLICKS_TO_STALL = 30_000;
    static final int CLICKS_WHILE_STALLED = 500;
    static final Duration WAIT = Duration.ofSeconds(30);

    @LocalServerPort
    int port;

    @Autowired
    LiveBoards liveBoards;

    @Test
    void aTabThatStoppedReadingNeverHoldsItsSessionsClicksNorItsHealthyTab(BoardClient client) throws Exception {
        String contextName = client.get("/api/board").json().get("context").get("name").asString();
        for (int i = 0; i < 5; i++) { // sample.max-items in the tests: bigger boards fill the buffers sooner
            assertThat(client.postForm("/api/items", "text", "x".repeat(79) + i).status()).isEqualTo(200);
        }
        Board board = liveBoards.all().stream().filter(b -> b.context().name().equals(contextName)).findFirst()
                .orElseThrow();
        // Counted from here: the session's first request builds its board (class loading, first use of the
        // live channel), which on a loaded machine can itself outlast the test's 200 ms blocked threshold.
        long blockedBefore = client.get("/api/board").json().get("context").get("blocked").asLong();
        try (StalledSocket stalledTab = StalledSocket.sse(port, "/api/events", client.sessionId())) {
            await().atMost(WAIT).until(() -> board.tabs().size() == 1);
            LiveSubscriber stalled = board.tabs().get(0);
            try (EventStream healthy = client.events()) {
                await().atMost(WAIT).until(() -> board.tabs().size() == 2);

                int clicks = 0;
                // Until the stalled tab's socket buffers are full: its drain then waits for a write that never
                // completes, and the changes pass it by (its last written board stays far behind).
                while (behind(board, stalled) < 100) {
                    assertThat(clicks).as("the stalled tab never stalled within %d clicks", MAX_CLICKS_TO_STALL)
                            .isLessThan(MAX_CLICKS_TO_STALL);
                    click(client, ++clicks);
                }
                int stalledAt = clicks;
                for (int i = 0; i < CLICKS_WHILE_STALLED; i++) {
                    click(client, ++clicks);
                }
                long total = clicks;
                healthy.awaitCounter(total);

                assertThat(stalled.isOpen()).as("the stalled tab is still connected").isTrue();
                assertThat(behind(board, stalled)).as("and still stalled").isGreaterThanOrEqualTo(100);
                assertThat(stalled.buffered()).as("coalesced by key: it holds only the latest board").isEqualTo(1);
                assertThat(stalled.dropped()).as("the boards that passed it by are counted").isPositive();
                Reply last = client.get("/api/board");
                assertThat(last.counter()).isEqualTo(total);
                assertThat(last.json().get("context").get("blocked").asLong() - blockedBefore)
                        .as("the watchdog never saw the session's context blocked by the stalled tab").isZero();
                System.out.printf("head-of-line: stalled after %d clicks, %d more answered; the stalled tab wrote %d"
                        + " boards, dropped %d, holds %d; the healthy tab got %d%n", stalledAt, CLICKS_WHILE_STALLED,
                        stalled.written(), stalled.dropped(), stalled.buffered(), healthy.boards().size());

                assertThat(client.delete("/api/session").status()).isEqualTo(204);
                healthy.awaitEndedAndClosed(); // the end does not wait for the tab that does not read
                await().atMost(WAIT).until(() -> !stalled.isOpen());
            }
        }
    }

    /** How many messages the channel published after the last one the tab's transport took. */
    private static long behind(Board board, LiveSubscriber tab) {
        return board.liveSequence() - tab.lastWritten();
    }

    private static void click(BoardClient client, int expected) {
        Reply reply = client.post("/api/counter/increment");
        assertThat(reply.status()).as("click %d answered: %s", expected, reply).isEqualTo(200);
        assertThat(reply.counter()).isEqualTo(expected);
    }
}
