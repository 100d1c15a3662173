package dev.synccontext.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import dev.synccontext.spring.live.LiveChannels;
import dev.synccontext.live.LiveStatistics;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/** What the tabs of a session receive over Server-Sent Events. */
@SampleServerTest
class LiveUpdatesTest {

    @Autowired
    LiveChannels channels;

    @Test
    void tickerReachesEveryTabOfEverySessionThroughItsContext(BoardClient alice, BoardClient bob) {
        alice.get("/api/board");
        bob.get("/api/board");
        try (EventStream aliceTab = alice.events(); EventStream bobTab = bob.events()) {
            JsonNode first = aliceTab.awaitBoard(board -> !board.get("tick").isNull());
            long sequence = first.get("tick").get("sequence").asLong();
            JsonNode later = aliceTab.awaitBoard(board -> !board.get("tick").isNull()
                    && board.get("tick").get("sequence").asLong() >= sequence + 2);
            assertThat(later.get("tick").get("price").decimalValue()).isPositive();
            assertThat(later.get("context").get("lastThread").asString())
                    .as("a tick is posted: it is queued and drained on the pool, never inline")
                    .doesNotStartWith("http-nio");
            bobTab.awaitBoard(board -> !board.get("tick").isNull()
                    && board.get("tick").get("sequence").asLong() >= sequence + 2);
        }
    }

    @Test
    void aClickInOneTabReachesTheOtherTabs(BoardClient client) {
        client.get("/api/board");
        try (EventStream tab1 = client.events(); EventStream tab2 = client.events()) {
            tab1.awaitFirstBoard();
            tab2.awaitBoard(board -> board.get("subscribers").asInt() == 2);
            client.post("/api/counter/increment");
            client.postForm("/api/items", "text", "seen everywhere");
            for (EventStream tab : List.of(tab1, tab2)) {
                JsonNode board = tab.awaitBoard(b -> b.get("items").size() == 1);
                assertThat(board.get("counter").asLong()).isEqualTo(1);
                assertThat(board.get("items").get(0).get("text").asString()).isEqualTo("seen everywhere");
            }
        }
    }

    @Test
    void quoteShowsLoadingThenTheAnswerInOrder(BoardClient client) {
        client.get("/api/board");
        try (EventStream tab = client.events()) {
            tab.awaitFirstBoard();
            assertThat(client.postForm("/api/quote", "symbol", "INITECH").status()).isEqualTo(200);
            tab.awaitBoard(board -> "done".equals(board.get("quote").get("state").asString()));
            List<String> states = tab.boards().stream()
                    .map(board -> board.get("quote").get("state").asString())
                    .distinct()
                    .toList();
            assertThat(states).containsSubsequence("idle", "loading", "done");
            long ticksWhileLoading = tab.boards().stream()
                    .filter(board -> "loading".equals(board.get("quote").get("state").asString()))
                    .count();
            assertThat(ticksWhileLoading).as("the board kept changing (ticks) while the backend worked")
                    .isGreaterThanOrEqualTo(1);
        }
    }

    /**
     * A tab that reconnects with {@code Last-Event-ID} (as {@code EventSource} does by itself) resumes after
     * that event, from the board's replay buffer: no snapshot, no duplicate; an id of another session's
     * channel (another epoch) gets the whole board instead.
     */
    @Test
    void aReconnectWithLastEventIdResumesAfterItAndAForeignIdGetsTheWholeBoard(BoardClient client, BoardClient other) {
        client.get("/api/board");
        LiveStatistics session = channels.statistics(LiveChannels.DEFAULT_SCOPE);
        String seen;
        try (EventStream tab = client.events()) {
            tab.awaitFirstBoard();
            List<String> ids = tab.ids();
            seen = ids.get(ids.size() - 1);
        }
        assertThat(client.post("/api/counter/increment").counter()).isOne();
        assertThat(client.post("/api/counter/increment").counter()).isEqualTo(2);

        long resumedBefore = session.resumed();
        long snapshotsBefore = session.snapshots();
        try (EventStream again = client.events(seen)) {
            again.awaitCounter(2);
            // The statistics are the scope's, every session's, and the JDK's HttpClient resends a GET by itself
            // when a pooled connection it sent it on turns out closed: CI once counted two resumes here. So the
            // count says "replayed, not a snapshot"; the stream's own ids say "once, nothing before, no repeat".
            assertThat(session.resumed() - resumedBefore).as("served from the replay buffer").isPositive();
            assertThat(session.snapshots() - snapshotsBefore).as("no snapshot").isZero();
            List<String> resumed = again.ids();
            assertThat(resumed).as("no event twice").doesNotHaveDuplicates();
            assertThat(resumed).as("the same channel, every event after the one it saw").allSatisfy(id -> {
                assertThat(EventStream.epoch(id)).isEqualTo(EventStream.epoch(seen));
                assertThat(EventStream.sequence(id)).isGreaterThan(EventStream.sequence(seen));
            });
        }

        other.get("/api/board");
        long resumedBeforeForeign = session.resumed();
        try (EventStream foreign = other.events(seen)) {
            JsonNode first = foreign.awaitFirstBoard();
            assertThat(first.get("counter").asLong()).as("its own session's board").isZero();
            assertThat(session.resumed() - resumedBeforeForeign).as("another channel's id never resumes").isZero();
            assertThat(EventStream.epoch(foreign.ids().get(0))).isNotEqualTo(EventStream.epoch(seen));
        }
    }
}
