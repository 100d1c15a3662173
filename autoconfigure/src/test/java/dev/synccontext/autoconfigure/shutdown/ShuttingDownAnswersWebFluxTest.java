package dev.synccontext.autoconfigure.shutdown;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.testing.Browser;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * WebFlux on real Netty, while the drain runs: a request that needs its WebSession's context answers
 * {@code 503} with {@code Connection: close} and the refusal's reason as text, for a session whose context
 * the drain closed and for a new one; any other failure still gets Boot's 500.
 */
@SpringBootTest(classes = ShuttingDownAnswersWebFluxTest.App.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = "spring.main.web-application-type=reactive")
@DirtiesContext // the registry is drained
class ShuttingDownAnswersWebFluxTest {

    @LocalServerPort
    int port;

    @Autowired
    SyncContextRegistry registry;

    @Test
    void aRequestRefusedBecauseTheApplicationIsShuttingDownAnswers503WithItsReason() throws Exception {
        Browser earlier = new Browser(port);
        assertThat(earlier.get("/count").body()).isEqualTo("1");

        ShuttingDownAnswersMvcTest.drain(registry);

        HttpResponse<String> known = earlier.get("/count");
        HttpResponse<String> fresh = new Browser(port).get("/count");
        for (HttpResponse<String> reply : List.of(known, fresh)) {
            ShuttingDownAnswersMvcTest.assertShuttingDownAnswer(reply);
            assertThat(reply.body()).contains("shutting down");
        }
        assertThat(new Browser(port).get("/broken").statusCode()).as("any other failure").isEqualTo(500);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(CountController.class)
    static class App {
    }

    @RestController
    static class CountController {

        private int count;

        @GetMapping("/count")
        Mono<String> count(RendererSyncContext context) {
            return Mono.fromFuture(() -> context.invokeAsync(() -> String.valueOf(++count)));
        }

        @GetMapping("/broken")
        Mono<String> broken() {
            return Mono.error(new IllegalStateException("broken on purpose"));
        }
    }
}
