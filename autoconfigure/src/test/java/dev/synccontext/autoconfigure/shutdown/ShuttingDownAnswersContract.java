package dev.synccontext.autoconfigure.shutdown;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.live.LiveChannelGroup;
import dev.synccontext.registry.ShutdownDrain;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.testing.Browser;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.test.annotation.DirtiesContext;

/**
 * What either web stack answers while the drain runs, over real HTTP: a request that needs its session's context
 * gets {@code 503} with {@code Connection: close} (a balancer may send it elsewhere), whether its session's
 * context was closed by the drain (the context refuses the callback) or the session is new (the registry refuses
 * the context); any other failure still gets a 500. Each stack's test runs {@link App} with a controller of its
 * own: {@code GET /count} (a count on the session's context) and {@code GET /broken} (throws).
 */
@DirtiesContext // the registry is drained
abstract class ShuttingDownAnswersContract {

    /** The application, bare: each stack's test adds its controller to it. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
    }

    @Autowired
    SyncContextRegistry registry;

    /** What else a stack's 503 says; nothing by default. */
    void assertReason(HttpResponse<String> reply) {
    }

    @Test
    void aRequestRefusedBecauseTheApplicationIsShuttingDownAnswers503AndClosesTheConnection(Browser earlier,
            Browser newcomer, Browser other) throws Exception {
        assertThat(earlier.get("/count").body()).isEqualTo("1");

        drain(registry);

        HttpResponse<String> known = earlier.get("/count");
        HttpResponse<String> fresh = newcomer.get("/count");
        for (HttpResponse<String> reply : List.of(known, fresh)) {
            assertShuttingDownAnswer(reply);
            assertReason(reply);
        }
        assertThat(other.get("/broken").statusCode()).as("any other failure").isEqualTo(500);
    }

    /** 503, and the connection closed, so that the client's next request may reach another node. */
    static void assertShuttingDownAnswer(HttpResponse<String> reply) {
        assertThat(reply.statusCode()).as(reply.body()).isEqualTo(503);
        assertThat(reply.headers().firstValue("Connection")).hasValue("close");
    }

    static void drain(SyncContextRegistry registry) throws InterruptedException {
        new ShutdownDrain(registry, new LiveChannelGroup(), Duration.ofSeconds(2), 500).run(() -> {
        });
    }
}
