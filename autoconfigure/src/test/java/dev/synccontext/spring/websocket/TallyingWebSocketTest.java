package dev.synccontext.spring.websocket;

import static org.awaitility.Awaitility.await;

import dev.synccontext.registry.SyncContextRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.core.ConditionTimeoutException;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * What the end-to-end WebSocket tests that count frames on {@link Tally}s share: labels no earlier test used,
 * the wait for a label's frames, and the gauge of open WebSocket contexts.
 */
abstract class TallyingWebSocketTest {

    static final int SENDERS = 4;
    static final int FRAMES = 500;
    static final Duration WAIT = Duration.ofSeconds(Long.getLong("ws.wait.seconds", 60));

    private static final AtomicInteger RUNS = new AtomicInteger();

    /** Prefix of this test's labels, so state of an earlier test (or repetition) never counts. */
    final String run = "run" + RUNS.incrementAndGet() + "-";

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    @Autowired
    SyncContextRegistry registry;

    /** The application's tallies, by the label the frames carried. */
    abstract Map<String, Tally> tallies();

    /** What else a timed-out wait for the gauge reports (the test's own handler counts); empty by default. */
    String whileWaiting() {
        return "";
    }

    /** Waits until {@code frames} frames labelled {@code label} were handled; answers their tally. */
    final Tally awaitHandled(String label, int frames) {
        await().atMost(WAIT).until(() -> tallies().containsKey(label) && tallies().get(label).handled.get() == frames);
        return tallies().get(label);
    }

    final double webSocketContexts() {
        return meters.get("synccontext.contexts").tag("scope", WebSocketSessionContexts.SCOPE).gauge().value();
    }

    /** Waits until the gauge shows {@code expected} open WebSocket contexts; says which are open if it does not. */
    final void awaitWebSocketContexts(int expected) {
        try {
            await().atMost(WAIT).until(() -> webSocketContexts() == expected);
        } catch (ConditionTimeoutException timedOut) {
            throw new AssertionError("expected " + expected + " open websocket contexts, gauge says "
                    + webSocketContexts() + "; open: " + registry.contexts().stream()
                            .filter(c -> c.name().startsWith("websocket-")).map(c -> c.name() + "(queued "
                                    + c.queueDepth() + ")").toList()
                    + whileWaiting(), timedOut);
        }
    }
}
