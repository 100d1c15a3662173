package dev.synccontext.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/** What the tabs of a session receive over Server-Sent Events. */
@SampleServerTest
class LiveUpdatesTest {

    @LocalServerPort
    int port;

    @Test
    void tickerReachesEveryTabOfEverySessionThroughItsContext() {
        BoardClient alice = new BoardClient(port);
        BoardClient bob = new BoardClient(port);
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
    void aClickInOneTabReachesTheOtherTabs() {
        BoardClient client = new BoardClient(port);
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
    void quoteShowsLoadingThenTheAnswerInOrder() {
        BoardClient client = new BoardClient(port);
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
}
