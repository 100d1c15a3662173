package dev.synccontext.sample;

import static dev.synccontext.sample.BoardApiTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.registry.SyncContextRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import dev.synccontext.sample.BoardClient.Reply;

/** Sessions are independent, and an ended session ends cleanly: its tabs are told, its context is closed. */
@SampleServerTest
class SessionLifecycleTest {

    @Autowired
    SyncContextRegistry registry;

    @Test
    void twoSessionsHaveTheirOwnBoardAndContext(BoardClient alice, BoardClient bob) {
        alice.get("/api/board");
        bob.get("/api/board");
        alice.post("/api/counter/increment");
        alice.post("/api/counter/increment");
        bob.postForm("/api/items", "text", "bob's item");

        assertThat(alice.get("/api/board").counter()).isEqualTo(2);
        assertThat(bob.get("/api/board").counter()).isZero();
        assertThat(alice.get("/api/board").json().get("items")).isEmpty();
        assertThat(alice.get("/api/board").json().get("context").get("name").asString())
                .isNotEqualTo(bob.get("/api/board").json().get("context").get("name").asString());
    }

    @Test
    void endingASessionTellsEveryTabClosesItsContextAndLaterCallsGetAClearGone(BoardClient client) {
        String contextName = client.get("/api/board").json().get("context").get("name").asString();
        assertThat(openContextNames()).contains(contextName);
        EventStream tab1 = client.events();
        EventStream tab2 = client.events();
        tab1.awaitFirstBoard();
        tab2.awaitBoard(board -> board.get("subscribers").asInt() == 2);

        assertThat(client.delete("/api/session").status()).isEqualTo(204);

        tab1.awaitEndedAndClosed();
        tab2.awaitEndedAndClosed();
        assertThat(tab1.endedReason()).as("the ended event says why").contains("ended from one of its tabs");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                assertThat(openContextNames()).as("the session's context is closed").doesNotContain(contextName));

        String gone = "Your session has ended";
        assertProblem(client.post("/api/counter/increment"), 410, gone);
        assertProblem(client.postForm("/api/items", "text", "late"), 410, gone);
        assertProblem(client.postForm("/api/quote", "symbol", "ACME"), 410, gone);
        Reply stream = client.send(client.request("/api/events").setHeader("Accept", "text/event-stream").GET());
        assertThat(stream.status()).as("a tab reconnecting to an ended session: %s", stream).isEqualTo(410);
        assertThat(stream.body()).contains(gone);

        assertThat(client.delete("/api/session").status()).as("ending it again is a no-op").isEqualTo(204);
        Reply fresh = client.get("/api/board");
        assertThat(fresh.status()).as("GET /api/board starts a new session").isEqualTo(200);
        assertThat(fresh.counter()).isZero();
        assertThat(client.post("/api/counter/increment").counter()).isEqualTo(1);
    }

    @Test
    void unknownSessionCookieIsGoneNotSilentlyReplaced(BoardClient client) {
        client.useSessionId("DEADBEEFDEADBEEFDEADBEEFDEADBEEF");
        client.get("/"); // picks up the CSRF cookie, as the page does; the page itself needs no session
        assertThat(client.sessionId()).isEqualTo("DEADBEEFDEADBEEFDEADBEEFDEADBEEF");
        assertProblem(client.post("/api/counter/increment"), 410, "Your session has ended");
    }

    private java.util.List<String> openContextNames() {
        return registry.contexts().stream().map(RendererSyncContext::name).toList();
    }
}
