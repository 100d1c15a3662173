package dev.synccontext.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Over real HTTP, one benchmark run at a time, as Boot's {@code heapdump} does: a POST while another run
 * is in progress answers 429 with a message. Deterministic, not timed: the contexts drain on an
 * executor whose tasks wait at a gate, so the first run is still in progress, provably, when the
 * second POST arrives; the gate then opens and the first run completes.
 */
@OnRandomPort(classes = EndpointConcurrentPostHttpTest.App.class,
        properties = { "management.endpoints.web.exposure.include=synccontext",
                "management.endpoint.synccontext.access=unrestricted",
                "synccontext.executor=application-task-executor" })
class EndpointConcurrentPostHttpTest {

    /** Drains of every context of this application wait here until the test opens it. */
    static final CountDownLatch GATE = new CountDownLatch(1);
    static final ExecutorService POOL = Executors.newCachedThreadPool();

    private static final String ONE_RUN = "{\"scenarios\":\"PostSerial\",\"iterations\":1,\"warmups\":0}";

    @AfterAll
    static void stopPool() {
        GATE.countDown();
        POOL.shutdownNow();
    }

    @Test
    void aPostWhileARunIsInProgressGets429WithAMessageAndTheRunStillCompletes(Browser admin) throws Exception {
        CompletableFuture<HttpResponse<String>> held = CompletableFuture.supplyAsync(
                () -> admin.postJson("/actuator/synccontext", ONE_RUN));
        try {
            await().atMost(Duration.ofSeconds(30)).until(
                    () -> admin.get("/actuator/synccontext").body().contains("\"scenarioRunInProgress\":true"));
            HttpResponse<String> second = admin.postJson("/actuator/synccontext", ONE_RUN);
            assertThat(second.statusCode()).as(second.body()).isEqualTo(429);
            assertThat(second.body()).contains("already in progress").contains("synccontext.benchmark.max-duration");
            assertThat(held).as("the first run waits at the gate").isNotDone();
        } finally {
            GATE.countDown();
        }
        HttpResponse<String> first = held.get(60, TimeUnit.SECONDS);
        assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
        assertThat(admin.postJson("/actuator/synccontext", ONE_RUN).statusCode())
                .as("a POST after the run finished runs").isEqualTo(200);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {

        @Bean
        Executor applicationTaskExecutor() {
            return task -> POOL.execute(() -> {
                try {
                    if (!GATE.await(60, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("the test never opened the gate");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                task.run();
            });
        }
    }
}
