package dev.synccontext.spring.live;

import static dev.synccontext.spring.live.LanesTab.note;
import static dev.synccontext.spring.live.LanesTab.say;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import dev.synccontext.testing.SseClient;
import org.junit.jupiter.api.Test;

/**
 * {@link LanesScenarios} on a servlet SSE connection ({@link LiveSse} with {@link LiveLane}s, real Tomcat), with the
 * premise that makes lanes worth having: the one shared sequence of a lobby publishing into the private channel
 * loses the private event's resume when the lobby's burst passes the replay.
 */
@OnRandomPort(classes = LanesApp.class, properties = {
        LanesScenarios.POLICY, LanesScenarios.BUFFER, LanesScenarios.REPLAY, LanesScenarios.CAP,
        "server.shutdown=immediate"})
class LanesHttpTest extends LanesScenarios {

    @Override
    String sessionCookie() {
        return "JSESSIONID";
    }

    @Test
    void premiseOneSharedSequenceLosesThePrivateEventsResumeWhenALobbyFloodsIt(Browser alice) throws Exception {
        String lobby = "premise-" + RUNS.incrementAndGet();
        assertThat(alice.post("/lanes/" + lobby + "/join-into-me").statusCode()).isEqualTo(200);
        String lastSeen;
        try (SseClient tab = new SseClient(alice.httpClient(), alice.uri("/lanes/single"), null, null)) {
            await().atMost(WAIT).until(() -> tab.events.size() == 1);
            note(alice, "before");
            await().atMost(WAIT).until(() -> tab.events.size() == 2);
            lastSeen = tab.last().id();
        }
        note(alice, "away"); // the same while away as in aReconnectResumesEachLaneFromItsOwnPosition, in one sequence
        for (int i = 0; i < 20; i++) {
            say(alice, lobby, "l" + i);
        }
        try (SseClient back = new SseClient(alice.httpClient(), alice.uri("/lanes/single"), null, lastSeen)) {
            await().atMost(WAIT).until(() -> !back.events.isEmpty());
            assertThat(back.events.get(0).event()).as("21 missed in one sequence pass its replay of 16: a snapshot,"
                    + " and the private note is not replayed").isEqualTo("snapshot");
        }
    }
}
