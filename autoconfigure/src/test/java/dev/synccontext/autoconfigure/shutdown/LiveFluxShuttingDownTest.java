package dev.synccontext.autoconfigure.shutdown;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;

/**
 * A WebFlux event stream asked for while the drain runs ({@link FluxDrainApp} in this JVM, on Reactor Netty) answers
 * {@code 503} before any event, for a session whose context the drain closed (its subscription is refused on the
 * context) and for a new one (the registry creates no context): a reconnect reaching a draining node is sent
 * elsewhere instead of getting a stream that could only end at once.
 */
@OnRandomPort(classes = FluxDrainApp.class, properties = "spring.main.web-application-type=reactive")
@DirtiesContext // the registry is drained
class LiveFluxShuttingDownTest {

    @Autowired
    SyncContextRegistry registry;

    @Test
    void anEventStreamAskedForWhileTheApplicationShutsDownAnswers503(Browser earlier, Browser newcomer)
            throws Exception {
        HttpResponse<InputStream> first = earlier.send(earlier.request("/events").header("Accept", "text/event-stream")
                .timeout(Duration.ofSeconds(10)), HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream body = first.body()) {
            assertThat(first.statusCode()).isEqualTo(200);
            assertThat(new String(body.readNBytes(20), StandardCharsets.UTF_8)).startsWith("id:"); // its snapshot
        }
        assertThat(earlier.cookie("SESSION")).as("the first stream opened a session").isNotNull();

        ShuttingDownAnswersContract.drain(registry);

        for (Browser tab : new Browser[] {earlier, newcomer}) {
            HttpResponse<String> reply = tab.send(tab.request("/events").header("Accept", "text/event-stream")
                    .timeout(Duration.ofSeconds(10)));
            ShuttingDownAnswersContract.assertShuttingDownAnswer(reply);
            assertThat(reply.body()).contains("shutting down").doesNotContain("event:");
        }
    }
}
