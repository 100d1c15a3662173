package dev.synccontext.bench.capacity.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

import dev.synccontext.bench.capacity.CapacityApplication;
import dev.synccontext.bench.capacity.ServerClickTimes;

/**
 * The capacity harness at small N, against the capacity application on real Tomcat: 200 sessions, each one
 * open tab (an event stream with clicks on the pool of connections, or a WebSocket with clicks on the same
 * socket), each clicking; every click's update arrives once, in order, carrying its nonce, and the load
 * client counts no error. What keeps the harness's figures honest: a client that lost, repeated or
 * reordered updates would fail here before it reported a latency. Each transport runs on one selector loop
 * and on two ({@link ShardedLoadClient}: nonces unique over the loops, windows merged).
 */
@SpringBootTest(classes = CapacityApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        args = "--spring.config.name=capacity")
class CapacityHarnessTest {

    private static final int SESSIONS = 200;
    private static final int CLICKS_PER_SESSION = 3;
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @LocalServerPort
    int port;

    @Autowired
    ServerClickTimes serverTimes;

    @ParameterizedTest(name = "{0}, {1} selector loop(s)")
    @CsvSource({ "sse, 1", "websocket, 1", "sse, 2", "websocket, 2" })
    void everyClicksUpdateArrivesOnceInOrderWithItsNonce(String transport, int selectors) throws Exception {
        var settings = new LoadClient.Settings(new InetSocketAddress("127.0.0.1", port), Duration.ofMillis(500), 16,
                64, true, transport.equals("websocket"));
        serverTimes.nextWindow();
        try (ShardedLoadClient client = new ShardedLoadClient(settings, selectors)) {
            client.sessions(SESSIONS);
            await("all " + SESSIONS + " tabs live", () -> client.liveTabs() == SESSIONS);
            // One window from the first click on: a window reset while clicks wait would count their updates twice.
            await(CLICKS_PER_SESSION + " clicks per session", () -> client.clicksSentNow() >= SESSIONS * CLICKS_PER_SESSION);
            client.clicking(false);
            await("every click's update", () -> client.waitingClicks() == 0);
            Window window = client.nextWindow();

            assertThat(window.errors()).as("errors the load client counted").isEmpty();
            assertThat(window.updates()).as("updates received in order").isEqualTo((int) window.clicksSent());
            List<List<List<Long>>> logs = client.nonceLogs();
            assertThat(logs).hasSize(SESSIONS);
            long clicks = 0;
            for (List<List<Long>> tab : logs) {
                assertThat(tab.get(1)).as("nonces of a tab's updates against the nonces it sent").isEqualTo(tab.get(0));
                assertThat(tab.get(0)).as("a tab's nonces are distinct").doesNotHaveDuplicates();
                clicks += tab.get(0).size();
            }
            assertThat(clicks).isGreaterThanOrEqualTo(SESSIONS * CLICKS_PER_SESSION);
            assertThat(window.percentileMillis(0.99)).isPositive();
            assertThat(window.sendLagMillis(1.0)).as("the client's send lag, one sample a click")
                    .isLessThanOrEqualTo(window.maxMillis());
            assertThat(logs.stream().flatMap(tab -> tab.get(0).stream())).as("nonces over every tab and loop")
                    .doesNotHaveDuplicates();
            // The server's share counts each click request's update once (a WebSocket's click is no request).
            long serverCounted = Long.parseLong(serverTimes.nextWindow().split(" ")[0]);
            assertThat(serverCounted).as("clicks the server timed").isEqualTo(transport.equals("sse") ? clicks : 0);
        }
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Waited " + PATIENCE + " for " + what);
            }
            Thread.sleep(20); // polling a condition the client's own thread makes true
        }
    }
}
