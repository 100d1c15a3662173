package dev.synccontext.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest.BodyPublishers;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.synccontext.sample.BoardClient.Reply;

/**
 * The management side as a deployment sees it: health is public, everything else needs the actuator
 * credentials, and the starter's metrics and endpoint are there with the application tag.
 */
@SampleServerTest
class ActuatorTest {

    @Test
    void healthIsPublic(BoardClient anonymous) {
        Reply health = anonymous.get("/actuator/health");
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.json().get("status").asString()).isEqualTo("UP");
    }

    @Test
    void managementEndpointsNeedCredentials(BoardClient anonymous) {
        for (String path : new String[] {"/actuator/prometheus", "/actuator/synccontext", "/actuator"}) {
            Reply reply = anonymous.get(path);
            assertThat(reply.status()).as("anonymous GET %s", path).isEqualTo(401);
            assertThat(reply.headers().firstValue("WWW-Authenticate")).as("basic challenge on %s", path)
                    .hasValueSatisfying(value -> assertThat(value).startsWith("Basic"));
        }
        Reply wrong = anonymous.send(anonymous.request("/actuator/prometheus")
                .header("Authorization", BoardClient.basic("actuator", "wrong")).GET());
        assertThat(wrong.status()).isEqualTo(401);
        Reply post = anonymous.send(anonymous.request("/actuator/synccontext")
                .header("Content-Type", "application/json").POST(BodyPublishers.ofString("{}")));
        assertThat(post.status()).as("anonymous benchmark run").isEqualTo(401);
        assertThat(anonymous.sessionId()).as("refusing a scrape creates no session").isNull();
    }

    @Test
    void prometheusShowsTheStarterMetricsTaggedWithTheApplication(BoardClient visitor, BoardClient admin) {
        visitor.get("/api/board");
        visitor.post("/api/counter/increment");

        Reply scrape = admin.getAsActuator("/actuator/prometheus");
        assertThat(scrape.status()).isEqualTo(200);
        assertThat(scrape.body()).contains(
                "synccontext_contexts{application=\"synccontext-sample\",scope=\"session\"}",
                "synccontext_queue_depth_tasks{application=\"synccontext-sample\"",
                "synccontext_tasks_total{application=\"synccontext-sample\",outcome=\"success\",path=\"inline\"",
                "synccontext_task_duration_sampled_seconds_count{application=\"synccontext-sample\"",
                "synccontext_blocked_total{application=\"synccontext-sample\"",
                "synccontext_unhandled_total{application=\"synccontext-sample\"",
                "jvm_threads_live_threads{application=\"synccontext-sample\"");
    }

    @Test
    void synccontextEndpointReportsLiveSessionsAndRunsABenchmark(BoardClient visitor, BoardClient admin) {
        visitor.get("/api/board");

        Reply stats = admin.getAsActuator("/actuator/synccontext");
        assertThat(stats.status()).isEqualTo(200);
        JsonNode json = stats.json();
        assertThat(json.get("contexts").asInt()).as("at least the visitor's session").isPositive();
        assertThat(json.get("settings").get("scope").asString()).isEqualTo("session");

        Reply run = admin.send(admin.request("/actuator/synccontext")
                .header("Authorization", BoardClient.basic(BoardClient.ACTUATOR_USER, BoardClient.ACTUATOR_PASSWORD))
                .header("Content-Type", "application/json")
                .POST(BodyPublishers.ofString("{\"scenarios\":\"InvokeAsyncReady\",\"iterations\":2,\"warmups\":1}")));
        assertThat(run.status()).as("%s", run).isEqualTo(200);
        assertThat(run.json().get("rows").get(0).get("method").asString()).isEqualTo("InvokeAsyncReady");
        assertThat(run.json().get("table").asString()).contains("| Method");
    }
}
