package dev.synccontext.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpRequest.BodyPublishers;
import java.time.Duration;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

import dev.synccontext.sample.BoardClient.Reply;

/** Each endpoint of the board API over real HTTP: what it answers, and how it refuses bad input. */
@SampleServerTest
class BoardApiTest {

    @LocalServerPort
    int port;

    @Autowired
    HeldQuoteBackend backend;

    BoardClient client;

    @BeforeEach
    void startSession() {
        client = new BoardClient(port);
        Reply board = client.get("/api/board");
        assertThat(board.status()).as("GET /api/board starts a session: %s", board).isEqualTo(200);
        assertThat(client.sessionId()).as("session cookie").isNotNull();
    }

    @Test
    void firstBoardOfASessionIsEmptyAndNamesItsOwnContext() {
        JsonNode board = client.get("/api/board").json();
        assertThat(board.get("counter").asLong()).isZero();
        assertThat(board.get("items")).isEmpty();
        assertThat(board.get("quote").get("state").asString()).isEqualTo("idle");
        assertThat(board.get("context").get("name").asString()).startsWith("session");
        assertThat(board.get("context").get("callbacksRun").asLong()).isPositive();
    }

    @Test
    void incrementAndResetAnswerWithTheChangedBoard() {
        assertThat(client.post("/api/counter/increment").counter()).isEqualTo(1);
        assertThat(client.post("/api/counter/increment").counter()).isEqualTo(2);
        assertThat(client.get("/api/board").counter()).isEqualTo(2);
        assertThat(client.post("/api/counter/reset").counter()).isZero();
    }

    @Test
    void everyChangeRaisesTheVersion() {
        long before = client.get("/api/board").json().get("version").asLong();
        long after = client.post("/api/counter/increment").json().get("version").asLong();
        assertThat(after).as("version after one change").isGreaterThan(before);
    }

    @Test
    void itemsCanBeAddedToggledAndRemoved() {
        Reply added = client.postForm("/api/items", "text", "  Write the release notes  ");
        assertThat(added.status()).as("%s", added).isEqualTo(200);
        JsonNode item = added.json().get("items").get(0);
        assertThat(item.get("text").asString()).as("stored trimmed").isEqualTo("Write the release notes");
        assertThat(item.get("done").asBoolean()).isFalse();
        long id = item.get("id").asLong();

        Reply toggled = client.post("/api/items/" + id + "/toggle");
        assertThat(toggled.json().get("items").get(0).get("done").asBoolean()).isTrue();

        Reply removed = client.delete("/api/items/" + id);
        assertThat(removed.status()).isEqualTo(200);
        assertThat(removed.json().get("items")).isEmpty();
    }

    @Test
    void unknownItemIsNotFoundWithAMessage() {
        Reply toggled = client.post("/api/items/424242/toggle");
        assertThat(toggled.status()).isEqualTo(404);
        assertThat(toggled.detail()).isEqualTo("There is no item 424242 on this board.");
        assertThat(client.delete("/api/items/424242").status()).isEqualTo(404);
    }

    @Test
    void badItemTextIsRefusedWithAMessageThatSaysWhy() {
        assertProblem(client.postForm("/api/items", "text", "   "), 400, "An item needs some text.");
        assertProblem(client.postForm("/api/items", "text", "x".repeat(81)), 400, "at most 80 characters");
        assertProblem(client.postForm("/api/items", "text", "two\nlines"), 400, "control characters");
        assertProblem(client.postForm("/api/items", "other", "x"), 400, "text");
        assertProblem(client.post("/api/items/not-a-number/toggle"), 400, "not-a-number");
        assertThat(client.get("/api/board").json().get("items")).as("nothing was added").isEmpty();
    }

    @Test
    void fullListIsAConflict() {
        for (int i = 1; i <= 5; i++) {
            assertThat(client.postForm("/api/items", "text", "item " + i).status()).isEqualTo(200);
        }
        assertProblem(client.postForm("/api/items", "text", "one too many"), 409, "The list is full (5 items)");
    }

    @Test
    void quoteLoadsFromTheSlowBackendAndIsShownOnTheBoard() {
        Reply quote = client.postForm("/api/quote", "symbol", "acme");
        assertThat(quote.status()).as("%s", quote).isEqualTo(200);
        JsonNode state = quote.json().get("quote");
        assertThat(state.get("state").asString()).isEqualTo("done");
        assertThat(state.get("symbol").asString()).as("normalized").isEqualTo("ACME");
        assertThat(state.get("price").decimalValue()).isPositive();
        assertThat(state.get("tookMillis").asLong()).as("the simulated latency").isGreaterThanOrEqualTo(250);
        assertThat(quote.json().get("context").get("lastThread").asString())
                .as("the answer was shown by a callback queued from the backend's thread")
                .doesNotStartWith("http-nio");
    }

    @Test
    void unknownSymbolIsNotFoundAndTheBoardShowsTheFailure() {
        assertProblem(client.postForm("/api/quote", "symbol", "NOPE"), 404, "No quote for NOPE");
        JsonNode state = client.get("/api/board").json().get("quote");
        assertThat(state.get("state").asString()).isEqualTo("failed");
        assertThat(state.get("message").asString()).startsWith("No quote for NOPE");
    }

    @Test
    void malformedSymbolIsABadRequest() {
        assertProblem(client.postForm("/api/quote", "symbol", "AC ME1"), 400, "A symbol is 1 to 12 letters");
        assertProblem(client.postForm("/api/quote", "symbol", ""), 400, "A symbol is 1 to 12 letters");
    }

    @Test
    void secondQuoteWhileOneLoadsIsAConflict() throws Exception {
        Reply[] first = new Reply[1];
        Thread slow = new Thread(() -> first[0] = client.postForm("/api/quote", "symbol", "GLOBEX"));
        // Held, so the first quote is still loading when the second arrives, however late that is.
        try (HeldQuoteBackend.Hold hold = backend.hold("GLOBEX")) {
            slow.start();
            awaitQuoteState("loading");
            assertProblem(client.postForm("/api/quote", "symbol", "HOOLI"), 409, "A quote for GLOBEX is still loading");
        }
        slow.join(10_000);
        assertThat(first[0].status()).as("the first quote still completes: %s", first[0]).isEqualTo(200);
        assertThat(first[0].json().get("quote").get("symbol").asString()).isEqualTo("GLOBEX");
    }

    @Test
    void changesWithoutTheCsrfHeaderAreForbiddenWithAMessage() {
        Reply reply = client.send(client.request("/api/counter/increment")
                .POST(BodyPublishers.noBody()));
        assertProblem(reply, 403, "X-XSRF-TOKEN");
        assertThat(client.get("/api/board").counter()).isZero();
    }

    @Test
    void wrongMethodAndUnknownPathAreClientErrors() {
        assertThat(client.get("/api/counter/increment").status()).isEqualTo(405);
        assertThat(client.get("/api/nothing-here").status()).isEqualTo(404);
        assertThat(client.postForm("/api/counter/increment", "a", "b").status()).as("a stray form is harmless")
                .isEqualTo(200);
    }

    @Test
    void pageIsServedAtTheRoot() {
        Reply page = client.send(client.request("/").setHeader("Accept", "text/html").GET());
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body()).contains("<title>Live board", "id=\"increment\"", "/board.js");
        assertThat(client.send(client.request("/board.js").GET()).status()).isEqualTo(200);
    }

    static void assertProblem(Reply reply, int status, String detailContains) {
        assertThat(reply.status()).as("status of %s", reply).isEqualTo(status);
        assertThat(reply.headers().firstValue("Content-Type")).as("content type of %s", reply)
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(reply.detail()).as("detail of %s", reply).contains(detailContains);
        assertThat(reply.body()).as("no stack trace in %s", reply).doesNotContain("at dev.", "Exception");
    }

    /** Polls the board (an explicit wait, with a timeout) until its quote reaches {@code state}. */
    private void awaitQuoteState(String state) {
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
                .until(() -> state.equals(client.get("/api/board").json().get("quote").get("state").asString()));
    }
}
