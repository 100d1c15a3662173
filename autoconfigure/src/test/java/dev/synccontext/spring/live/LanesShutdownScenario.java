package dev.synccontext.spring.live;

import static dev.synccontext.spring.live.LanesTab.subscribers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.live.LiveSubscriber;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.SseClient;
import dev.synccontext.testing.StalledSocket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.GracefulShutdownResult;
import org.springframework.boot.web.server.context.WebServerApplicationContext;

/**
 * A stream of lanes whose client stopped reading, once told to go away (what the shutdown drain does before the
 * server's graceful phase), holds no request open: the server's graceful shutdown finds it idle instead of
 * waiting {@code spring.lifecycle.timeout-per-shutdown-phase} for a client that never reads. Run on Tomcat and
 * Reactor Netty, each in an application of its own (the server stops).
 */
abstract class LanesShutdownScenario {

    @LocalServerPort
    int port;

    @Autowired
    LiveChannels channels;

    @Autowired
    WebServerApplicationContext context;

    /** The name of the server's session cookie. */
    abstract String sessionCookie();

    @Test
    void aStalledStreamToldToGoAwayDoesNotHoldTheServersGracefulShutdown(Browser stalledUser, Browser bob)
            throws Exception {
        String lobby = "shutdown";
        LanesTab.session(stalledUser);
        try (StalledSocket stalled = LanesTab.stalled(port, stalledUser, sessionCookie(), lobby)) {
            try (SseClient pacer = LanesTab.open(bob, null, lobby)) {
                await().atMost(Duration.ofSeconds(60)).until(() -> subscribers(bob, lobby).size() == 2);
                LanesTab.floodUntilADrop(bob, lobby, pacer, 2); // the stalled response holds unsent bytes
            }
            channels.group().subscribers().forEach(LiveSubscriber::goAway);
            CompletableFuture<GracefulShutdownResult> shutdown = new CompletableFuture<>();
            context.getWebServer().shutDownGracefully(shutdown::complete);
            assertThat(shutdown.get(60, TimeUnit.SECONDS)).as("the graceful shutdown found no request active: the"
                    + " stalled stream's response ended with its lanes").isEqualTo(GracefulShutdownResult.IDLE);
        }
    }
}
