package dev.synccontext.spring.websocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.registry.SyncContextRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.core.ConditionTimeoutException;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * What the end-to-end WebSocket tests that count frames on {@link Tally}s share: labels no earlier test used,
 * the wait for a label's frames, the gauge of open WebSocket contexts, and the scenario of connections sending at
 * the same time, each on a context of its own.
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

    /** A new connection of the test's kind, as a client opens it. */
    abstract Connection connect() throws Exception;

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

    /**
     * {@link #SENDERS} connections each send {@link #FRAMES} frames at the same time, each under a label of its
     * own; checks that each counted {@code incrementsPerFrame} per frame exactly, on a context of its own, and that
     * closing them releases every context.
     */
    final void assertConnectionsCountExactlyOnContextsOfTheirOwn(int incrementsPerFrame) throws Exception {
        List<Connection> connections = new ArrayList<>();
        for (int i = 0; i < SENDERS; i++) {
            connections.add(connect());
        }
        try {
            runConcurrently(SENDERS, c -> {
                for (int i = 0; i < FRAMES; i++) {
                    connections.get(c).send(run + "connection-" + c);
                }
            });
            List<Tally> tallies = new ArrayList<>();
            for (int c = 0; c < SENDERS; c++) {
                tallies.add(awaitHandled(run + "connection-" + c, FRAMES));
            }
            Tally.assertEachExactOnAContextOfItsOwn(tallies, incrementsPerFrame * FRAMES);
            assertThat(webSocketContexts()).isEqualTo(SENDERS);
        } finally {
            connections.forEach(Connection::close);
        }
        awaitWebSocketContexts(0);
    }

    /** Runs {@code sender} on {@code threads} threads that start together; waits for all of them. */
    static void runConcurrently(int threads, Sender sender) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Future<?>> all = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int index = t;
                all.add(pool.submit(() -> {
                    start.await();
                    sender.run(index);
                    return null;
                }));
            }
            for (Future<?> f : all) {
                f.get(2, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    interface Sender {
        void run(int index) throws Exception;
    }

    /** One client connection: sends a frame that carries {@code label}, and closes cleanly. */
    interface Connection {
        void send(String label) throws Exception;

        void close();
    }
}
