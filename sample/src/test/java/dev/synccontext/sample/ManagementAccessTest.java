package dev.synccontext.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;

import dev.synccontext.CallbackOutcome;
import dev.synccontext.CallbackPath;
import dev.synccontext.registry.SyncContextRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

import dev.synccontext.sample.BoardClient.Reply;

/**
 * The endpoint's access rules, as a matrix: the benchmark runner ({@code POST /actuator/synccontext}) and the
 * scrape ({@code GET /actuator/prometheus}) answer 401 to anyone without the actuator credentials —
 * anonymous, a wrong password, an unknown user, or a board visitor with a session and a valid CSRF
 * token — and a refused POST runs nothing; with the credentials both work.
 */
@SampleServerTest
class ManagementAccessTest {

    private static final String RUN = "{\"scenarios\":\"InvokeAsyncReady\",\"iterations\":1,\"warmups\":0}";

    @Autowired
    SyncContextRegistry registry;

    @Test
    void withoutTheActuatorCredentialsTheRunnerAndTheScrapeAnswer401AndNothingRuns(BoardClient visitor) {
        visitor.get("/api/board"); // a session and an XSRF-TOKEN cookie, as the page has
        long benchmarkTasks = benchmarkTasks();
        String[] refused = {null, BoardClient.basic("actuator", "not-the-password"),
                BoardClient.basic("admin", BoardClient.ACTUATOR_PASSWORD), "Bearer abc", "Basic !!!not-base64"};
        for (String authorization : refused) {
            Reply run = visitor.send(withAuth(visitor.request("/actuator/synccontext")
                    .header("Content-Type", "application/json").POST(BodyPublishers.ofString(RUN)), authorization));
            assertThat(run.status()).as("POST /actuator/synccontext with Authorization %s", authorization).isEqualTo(401);
            Reply scrape = visitor.send(withAuth(visitor.request("/actuator/prometheus").setHeader("Accept", "*/*").GET(),
                    authorization));
            assertThat(scrape.status()).as("GET /actuator/prometheus with Authorization %s", authorization).isEqualTo(401);
            assertThat(scrape.body()).doesNotContain("synccontext_");
        }
        Reply csrfOnly = visitor.post("/actuator/synccontext"); // a visitor's session + CSRF header, no credentials
        assertThat(csrfOnly.status()).as("a board session is no management credential").isEqualTo(401);
        assertThat(benchmarkTasks()).as("scenario tasks run by refused POSTs").isEqualTo(benchmarkTasks);
    }

    @Test
    void withTheActuatorCredentialsTheRunnerAndTheScrapeWork(BoardClient admin) {
        String authorization = BoardClient.basic(BoardClient.ACTUATOR_USER, BoardClient.ACTUATOR_PASSWORD);
        long benchmarkTasks = benchmarkTasks();
        Reply run = admin.send(admin.request("/actuator/synccontext").header("Authorization", authorization)
                .header("Content-Type", "application/json").POST(BodyPublishers.ofString(RUN)));
        assertThat(run.status()).as("%s", run).isEqualTo(200);
        assertThat(run.json().get("rows").get(0).get("method").asString()).isEqualTo("InvokeAsyncReady");
        assertThat(benchmarkTasks()).as("the authorized POST ran its scenario").isGreaterThan(benchmarkTasks);
        Reply scrape = admin.getAsActuator("/actuator/prometheus");
        assertThat(scrape.status()).isEqualTo(200);
        assertThat(scrape.body()).contains("synccontext_tasks_total");
        assertThat(admin.sessionId()).as("management calls create no HTTP session").isNull();
    }

    private static HttpRequest.Builder withAuth(HttpRequest.Builder request, String authorization) {
        return authorization == null ? request : request.header("Authorization", authorization);
    }

    private long benchmarkTasks() {
        var statistics = registry.statistics(SyncContextRegistry.BENCHMARK_SCOPE);
        long total = 0;
        for (CallbackPath path : CallbackPath.values()) {
            for (CallbackOutcome outcome : CallbackOutcome.values()) {
                total += statistics.tasks(path, outcome);
            }
        }
        return total;
    }
}
