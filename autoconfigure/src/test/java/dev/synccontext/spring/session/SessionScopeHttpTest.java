package dev.synccontext.spring.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.handler.ConcurrentPosts;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A real application on a real port with the default (session) scope: what a user of the starter
 * sees over HTTP, including the actuator endpoint and the Prometheus scrape.
 */
@OnRandomPort(classes = SessionScopeHttpTest.App.class, properties = {
        "management.endpoints.web.exposure.include=synccontext,prometheus",
        "management.endpoint.synccontext.access=unrestricted",
        "synccontext.benchmark.max-iterations=50", "synccontext.benchmark.max-duration=20s" })
class SessionScopeHttpTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @Test
    void sameSessionCookieGetsTheSameContextAndOtherSessionsGetTheirOwn(Browser alice, Browser bob) {
        TwoSessions contexts = TwoSessions.ask(alice, bob, "/context");
        assertThat(alice.get("/context").body()).as("a third request").isEqualTo(contexts.first());
    }

    @Test
    void concurrentRequestsOfOneSessionAreSerializedByItsContext(Browser carol) throws Exception {
        carol.get("/context"); // open the session first, so every request below shares its cookie
        int threads = 8;
        int perThread = 40;
        ConcurrentPosts.postFromThreads(carol, threads, perThread, "/increment");
        assertThat(carol.get("/count").body())
                .as("a plain int incremented by %d concurrent requests inside the context loses no update",
                        threads * perThread)
                .isEqualTo(String.valueOf(threads * perThread));
    }

    @Test
    void endpointGetShowsContextsTasksBlockedSettingsAndScenarios(Browser dave) {
        dave.get("/context");
        HttpResponse<String> response = dave.get("/actuator/synccontext");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type").orElse(""))
                .contains("application/vnd.spring-boot.actuator.v3+json");
        JsonNode body = JSON.readTree(response.body());
        assertThat(body.get("contexts").asInt()).isPositive();
        assertThat(body.has("queueDepth")).isTrue();
        assertThat(body.get("tasks").get("inline").get("success").asLong()).isPositive();
        assertThat(body.get("tasks").get("queued").has("rejected")).isTrue();
        assertThat(body.get("blocked").isArray()).isTrue();
        assertThat(body.get("settings").get("scope").asString()).isEqualTo("session");
        assertThat(body.get("settings").get("executor").asString()).as("the default executor").isEqualTo("elastic");
        assertThat(body.get("scenarios").get("names").toString()).contains("InvokeAsyncReady", "PostConcurrent");
        assertThat(body.get("scenarios").get("modes").toString()).contains("baseline", "optimized");
    }

    @Test
    void endpointPostRunsScenariosAndAnswersRowsAndTheSeedTable(Browser admin) {
        HttpResponse<String> response = admin.postJson("/actuator/synccontext",
                "{\"scenarios\":\"InvokeAsyncReady,PostSerial\",\"modes\":\"baseline,optimized\",\"iterations\":2,\"warmups\":0}");
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode body = JSON.readTree(response.body());
        assertThat(body.get("rows")).hasSize(4);
        JsonNode row = body.get("rows").get(0);
        assertThat(row.get("method").asString()).isEqualTo("InvokeAsyncReady");
        assertThat(row.get("mode").asString()).isEqualTo("baseline");
        assertThat(row.get("mean").asDouble()).isPositive();
        for (String field : List.of("error", "stdDev", "median", "allocated", "units")) {
            assertThat(row.has(field)).as(field).isTrue();
        }
        assertThat(body.get("table").asString()).contains("| Method").contains("InvokeAsyncReady").contains("optimized");
    }

    @Test
    void endpointPostWithBadInputIs400SayingWhatWasWrong(Browser erin) {
        HttpResponse<String> unknown = erin.postJson("/actuator/synccontext", "{\"scenarios\":\"Nope\"}");
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(unknown.body()).contains("Unknown scenario 'Nope'").contains("InvokeAsyncReady");
        HttpResponse<String> tooMany = erin.postJson("/actuator/synccontext", "{\"iterations\":51}");
        assertThat(tooMany.statusCode()).isEqualTo(400);
        assertThat(tooMany.body()).contains("synccontext.benchmark.max-iterations");
        assertThat(erin.postJson("/actuator/synccontext", "{\"iterations\":\"many\"}").statusCode()).isEqualTo(400);
    }

    @Test
    void prometheusShowsEveryMetric(Browser grace) {
        grace.get("/context");
        grace.post("/increment");
        String scrape = grace.get("/actuator/prometheus").body();
        for (String name : List.of("synccontext_contexts{", "synccontext_queue_depth_tasks{",
                "synccontext_tasks_total{", "synccontext_task_wait_sampled_seconds_count{",
                "synccontext_task_duration_sampled_seconds_count{", "synccontext_allocated_bytes_total{",
                "synccontext_allocation_rate_bytes_per_second{", "synccontext_blocked_total{",
                "synccontext_unhandled_total{")) {
            assertThat(scrape).as(name).contains(name);
        }
        assertThat(scrape).contains("synccontext_tasks_total{outcome=\"success\",path=\"inline\",scope=\"session\"}");
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(BoardController.class)
    static class App {
    }

    /** A singleton controller that uses the session's context through the injected scoped proxy. */
    @RestController
    static class BoardController {

        private final RendererSyncContext context;
        private final Map<String, int[]> counters = new ConcurrentHashMap<>();

        BoardController(RendererSyncContext context) {
            this.context = context;
        }

        @GetMapping("/context")
        String context() {
            return context.name();
        }

        @PostMapping("/increment")
        int increment() {
            int[] counter = counters.computeIfAbsent(context.name(), k -> new int[1]);
            return context.invokeAsync(() -> {
                context.assertAccess();
                int read = counter[0];
                for (int i = 0; i < 200; i++) {
                    Thread.onSpinWait(); // widen the read-modify-write window a race would need
                }
                counter[0] = read + 1;
                return counter[0];
            }).join();
        }

        @GetMapping("/count")
        int count() {
            int[] counter = counters.computeIfAbsent(context.name(), k -> new int[1]);
            return context.invokeAsync(() -> counter[0]).join();
        }
    }
}
