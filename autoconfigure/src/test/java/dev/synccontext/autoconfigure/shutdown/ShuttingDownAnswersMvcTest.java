package dev.synccontext.autoconfigure.shutdown;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.live.LiveChannelGroup;
import dev.synccontext.registry.ShutdownDrain;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.testing.Browser;
import java.net.http.HttpResponse;
import java.time.Duration;
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

/**
 * Spring MVC on real Tomcat, while the drain runs: a request that needs its session's context gets
 * {@code 503} with {@code Connection: close} (a balancer may send it elsewhere), whether its session's context
 * was closed by the drain (the context refuses the callback) or the session is new (the registry refuses
 * the context); any other failure still gets the container's 500. The premise,
 * {@link ShuttingDownAnswersMvcPremiseTest}, is the same app without the resolver: 500.
 */
@SpringBootTest(classes = ShuttingDownAnswersMvcTest.App.class, webEnvironment = WebEnvironment.RANDOM_PORT)
@DirtiesContext // the registry is drained
class ShuttingDownAnswersMvcTest {

    @LocalServerPort
    int port;

    @Autowired
    SyncContextRegistry registry;

    @Test
    void aRequestRefusedBecauseTheApplicationIsShuttingDownAnswers503AndClosesTheConnection() throws Exception {
        Browser earlier = new Browser(port);
        assertThat(earlier.get("/count").body()).isEqualTo("1");

        drain(registry);

        HttpResponse<String> known = earlier.get("/count");
        HttpResponse<String> fresh = new Browser(port).get("/count");
        assertShuttingDownAnswer(known);
        assertShuttingDownAnswer(fresh);
        assertThat(new Browser(port).get("/broken").statusCode()).as("any other failure").isEqualTo(500);
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

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(CountController.class)
    static class App {
    }

    @RestController
    static class CountController {

        private final RendererSyncContext context;
        private int count;

        CountController(RendererSyncContext context) {
            this.context = context;
        }

        @GetMapping("/count")
        String count() {
            return String.valueOf(context.invokeAsync(() -> ++count).join());
        }

        @GetMapping("/broken")
        String broken() {
            throw new IllegalStateException("broken on purpose");
        }
    }
}
