package dev.synccontext.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.synccontext.sample.BoardClient.Reply;

/** The opt-in faults reach the context's diagnostics: the watchdog and the unhandled-exception count. */
@SampleServerTest
class FaultsTest {

    @Test
    void failingPostIsCountedAsUnhandledAndTheSessionGoesOn(BoardClient client, BoardClient admin) {
        client.get("/api/board");
        assertThat(client.post("/api/faults/failing-post").status()).isEqualTo(202);
        await().atMost(Duration.ofSeconds(10)).until(() ->
                client.get("/api/board").json().get("context").get("unhandled").asLong() == 1);
        assertThat(client.post("/api/counter/increment").counter()).as("the context keeps serving").isEqualTo(1);
        String scrape = admin.getAsActuator("/actuator/prometheus").body();
        assertThat(scrape).contains("synccontext_unhandled_total{application=\"synccontext-sample\",scope=\"session\"}");
    }

    @Test
    void blockingCallbackIsReportedByTheWatchdog(BoardClient client, BoardClient admin) {
        client.get("/api/board");
        Reply blocked = client.post("/api/faults/blocking-callback");
        assertThat(blocked.status()).as("%s", blocked).isEqualTo(200);
        await().atMost(Duration.ofSeconds(10)).until(() ->
                client.get("/api/board").json().get("context").get("blocked").asLong() == 1);
        JsonNode stats = admin.getAsActuator("/actuator/synccontext").json();
        assertThat(stats.get("blockedTotal").asLong()).as("the endpoint counts it").isPositive();
    }
}
