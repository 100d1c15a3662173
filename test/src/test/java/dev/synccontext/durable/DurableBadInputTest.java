package dev.synccontext.durable;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.synccontext.spring.durable.DurableType;
import dev.synccontext.spring.durable.InMemoryStateStore;
import dev.synccontext.spring.durable.NodeLease;
import dev.synccontext.spring.durable.Ownership;
import dev.synccontext.spring.durable.SnapshotCodec;
import dev.synccontext.spring.durable.StateStore;
import dev.synccontext.spring.durable.StoredSnapshot;
import dev.synccontext.spring.durable.session.Durable;
import dev.synccontext.spring.durable.session.DurableCounters;
import dev.synccontext.spring.durable.session.SessionUnavailableException;
import dev.synccontext.spring.durable.session.StoreHealth;
import dev.synccontext.test.SyncContextTestKit;
import dev.synccontext.test.cluster.ClusterNode;
import dev.synccontext.test.cluster.InMemoryCluster;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * Bad input on the durable layer, on a one-node in-memory cluster: stored bytes that must not be restored, and a
 * store that is down. What {@code spring/DURABLE-STATE.md} says happens: a refused snapshot is never bound or run,
 * the session starts new beans, and the refusal is counted and logged naming the session and its beans; a store
 * that is down stops no owned session, its snapshots are retried with a bounded backoff, and its health is readable.
 */
@Execution(ExecutionMode.SAME_THREAD) // PROBE_SETTERS counts for one test at a time
@Isolated // a Spring Boot app starting beside it resets Logback, which detaches a CapturedLog's appender
class DurableBadInputTest {

    private static final Duration DEBOUNCE = Duration.ofMillis(200);
    private static final int BUDGET = 4096;
    /** Setter calls on any {@link Probe}: a refused snapshot must make none. */
    static final AtomicInteger PROBE_SETTERS = new AtomicInteger();

    /** A durable bean that counts every time its state is set from outside. */
    @Durable(name = "probe", version = 2)
    public static class Probe {
        private int count;

        public int getCount() {
            return count;
        }

        public void setCount(int count) {
            PROBE_SETTERS.incrementAndGet();
            this.count = count;
        }

        int increment() {
            return ++count;
        }
    }

    private final SyncContextTestKit kit = SyncContextTestKit.create();

    static Stream<Arguments> refusedSnapshots() throws IOException {
        ByteArrayOutputStream javaSerialized = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(javaSerialized)) {
            out.writeObject(new ArrayList<>(List.of("not", "json")));
        }
        return Stream.of(
                Arguments.of("an unknown type", envelope("{\"type\":\"cart\",\"version\":1,\"state\":{\"count\":41}}")),
                Arguments.of("an older version without an upgrade step",
                        envelope("{\"type\":\"probe\",\"version\":1,\"state\":{\"count\":41}}")),
                Arguments.of("corrupt bytes", "{\"format\":1,\"beans\":{\"probe\":{\"ty".getBytes(StandardCharsets.UTF_8)),
                Arguments.of("a Java serialization stream", javaSerialized.toByteArray()),
                Arguments.of("a value over the size budget", envelope("{\"type\":\"probe\",\"version\":2,\"state\":"
                        + "{\"count\":41,\"padding\":\"" + "x".repeat(BUDGET) + "\"}}")));
    }

    private static byte[] envelope(String probeEntry) {
        return ("{\"format\":1,\"beans\":{\"probe\":" + probeEntry + "}}").getBytes(StandardCharsets.UTF_8);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedSnapshots")
    void aStoredSnapshotThatIsRefusedIsNeverBoundAndTheSessionStartsNew(String what, byte[] stored) {
        InMemoryCluster cluster = InMemoryCluster.builder(kit).nodes("a").durable(Probe.class).debounce(DEBOUNCE)
                .sizeBudget(BUDGET).build();
        ClusterNode a = cluster.node("a");
        assertThat(increment(cluster, "s1")).isEqualTo(1);
        a.stop(); // graceful: final snapshot written, session released
        plant(cluster.store(), cluster.storeHandle("s1").orElseThrow(), stored);
        a.start();
        try (CapturedLog log = CapturedLog.of(DURABLE_SESSION_LOG)) {
            PROBE_SETTERS.set(0);

            int answer = increment(cluster, "s1");

            assertThat(answer).as("%s: the session goes on with a new bean", what).isEqualTo(1);
            assertThat(PROBE_SETTERS).as("%s: nothing of the refused snapshot was bound", what).hasValue(0);
            assertThat(a.counters().restoresRefused()).as("%s: counted", what).isEqualTo(1);
            assertThat(a.counters().restoreHits()).isZero();
            assertThat(log.events()).as("%s: logged at ERROR naming the session and its durable beans", what)
                    .anySatisfy(event -> assertThat(event.getFormattedMessage())
                            .contains("'" + cluster.storeHandle("s1").orElseThrow() + "'").contains("[probe]")
                            .contains("refused"));
        }
        kit.advanceBy(DEBOUNCE);
        assertThat(storedCount(cluster)).as("%s: the new state is stored in place of the refused bytes", what)
                .isEqualTo(1);
        cluster.close();
    }

    @Test
    void anOldNodeRefusesASnapshotOfANewerVersionAndNeverOverwritesIt() {
        InMemoryCluster cluster = InMemoryCluster.builder(kit).nodes("a").durable(Probe.class).debounce(DEBOUNCE)
                .build();
        ClusterNode a = cluster.node("a");
        assertThat(increment(cluster, "s1")).isEqualTo(1);
        a.stop();
        String handle = cluster.storeHandle("s1").orElseThrow();
        byte[] newer = envelope("{\"type\":\"probe\",\"version\":3,\"state\":{\"count\":41}}");
        plant(cluster.store(), handle, newer); // a newer deployment's node wrote version 3 of the bean
        a.start();
        try (CapturedLog log = CapturedLog.of(DURABLE_SESSION_LOG)) {
            PROBE_SETTERS.set(0);

            for (int attempt = 1; attempt <= 2; attempt++) {
                CompletableFuture<Integer> refused = cluster.call("s1", call -> call.bean(Probe.class).increment());
                kit.runUntilIdle();
                assertThat(refused).as("attempt %s: answered 503, not served from new beans", attempt)
                        .failsWithin(Duration.ZERO).withThrowableOfType(Exception.class)
                        .havingRootCause().isInstanceOfSatisfying(SessionUnavailableException.class,
                                unavailable -> assertThat(unavailable.retryAfter()).isPositive())
                        .withMessageContaining("newer deployment");
            }
            kit.advanceBy(DEBOUNCE.multipliedBy(10));

            assertThat(cluster.store().read(handle).orElseThrow().bytes()).as("the newer snapshot is left alone")
                    .isEqualTo(newer);
            assertThat(PROBE_SETTERS).as("nothing of it was bound").hasValue(0);
            assertThat(a.counters().restoresRefused()).isEqualTo(2);
            assertThat(a.counters().snapshotsWritten()).isZero();
            NodeLease newerNode = cluster.store().acquireNodeLease("newer", Duration.ofSeconds(30)).orElseThrow();
            assertThat(cluster.store().acquire(handle, newerNode, Duration.ofMinutes(30)))
                    .as("the old node gave the ownership back: a newer node takes the session at once")
                    .isInstanceOf(Ownership.Acquired.class);
            assertThat(log.events()).as("logged naming the session, the bean, the stored and the known version")
                    .anySatisfy(event -> assertThat(event.getFormattedMessage()).contains("'" + handle + "'")
                            .contains("bean 'probe' at version 3").contains("this node's version 2")
                            .contains("writes nothing"));
        }
        cluster.close();
    }

    @Test
    void aStoreThatIsDownStopsNoOwnedSessionAndItsSnapshotsAreRetriedWithABoundedBackoff() {
        Switch store = new Switch();
        InMemoryCluster cluster = clusterBehind(store);
        ClusterNode a = cluster.node("a");
        increment(cluster, "s1");
        kit.advanceBy(DEBOUNCE);

        store.down = true;
        for (int i = 2; i <= 5; i++) {
            assertThat(increment(cluster, "s1")).as("the owned session runs on while the store is down").isEqualTo(i);
        }
        kit.advanceBy(Duration.ofSeconds(60));

        DurableCounters counters = a.counters();
        StoreHealth.Status health = a.storeHealth();
        assertThat(health.reachable()).as("the store's health, as the node's calls found it").isFalse();
        assertThat(health.consecutiveFailures()).isPositive();
        assertThat(health.lastFailure()).contains("store is down");
        // 200 ms doubling to the 5 s cap: 200+400+800+1600+3200 ms, then one try per 5 s for the rest of the minute.
        assertThat(counters.writeRetries()).as("retried, with a bounded backoff").isBetween(11L, 18L);

        store.down = false;
        kit.advanceBy(StoreHealth.MAX_RETRY_DELAY);

        assertThat(a.storeHealth().reachable()).as("healthy again after a call succeeded").isTrue();
        assertThat(storedCount(cluster)).as("the newest snapshot is written once the store is back").isEqualTo(5);
        long retries = counters.writeRetries();
        kit.advanceBy(Duration.ofSeconds(30));
        assertThat(counters.writeRetries()).as("no retry after the write succeeded").isEqualTo(retries);
        cluster.close();
    }

    @Test
    void aSessionNotYetOwnedIsAnswered503WhileTheStoreIsDown() {
        Switch store = new Switch();
        InMemoryCluster cluster = clusterBehind(store);
        store.down = true;

        CompletableFuture<Integer> refused = cluster.call("s2", call -> call.bean(Probe.class).increment());
        kit.runUntilIdle();

        assertThat(refused).failsWithin(Duration.ZERO).withThrowableOfType(Exception.class)
                .havingRootCause().isInstanceOf(SessionUnavailableException.class)
                .withMessageContaining("state store did not answer");
        store.down = false;
        assertThat(increment(cluster, "s2")).as("served once the store answers").isEqualTo(1);
        cluster.close();
    }

    /** One node, {@code a}, on the kit, whose store is behind {@code store}'s switch (node lease: 5 minutes). */
    private InMemoryCluster clusterBehind(Switch store) {
        return InMemoryCluster.builder(kit).nodes("a").durable(Probe.class).debounce(DEBOUNCE)
                .nodeLeaseTtl(Duration.ofMinutes(5)).store(store::around).build();
    }

    private int increment(InMemoryCluster cluster, String session) {
        CompletableFuture<Integer> answer = cluster.call(session, call -> call.bean(Probe.class).increment());
        kit.runUntilIdle();
        return answer.join();
    }

    private static void plant(StateStore store, String handle, byte[] bytes) {
        NodeLease planter = store.acquireNodeLease("planter", Duration.ofSeconds(30)).orElseThrow();
        Ownership.Acquired owned = (Ownership.Acquired) store.acquire(handle, planter, Duration.ofMinutes(30));
        assertThat(store.write(handle, owned.token(), bytes, Duration.ofMinutes(30)).name()).isEqualTo("ACCEPTED");
        store.release(handle, owned.token());
        store.releaseNodeLease(planter);
    }

    private int storedCount(InMemoryCluster cluster) {
        StoredSnapshot stored = cluster.store().read(cluster.storeHandle("s1").orElseThrow()).orElseThrow();
        SnapshotCodec codec = SnapshotCodec.builder(JsonMapper.builder().build())
                .register(DurableType.of("probe", Probe.class, 2)).build();
        return ((Probe) codec.decode(stored.bytes()).get("probe")).getCount();
    }

    private static final String DURABLE_SESSION_LOG = "dev.synccontext.spring.durable.session.DurableSession";

    /**
     * A logger's events from now until {@link #close()}. Its test class runs {@link Isolated}: Spring Boot's
     * logging system resets Logback when an application starts, and the reset detaches every appender. Threads of
     * the test's own cluster still log while a test reads: {@link #events()} copies the list under the appender's own lock
     * (the one {@code AppenderBase.doAppend} holds while it appends), never iterating the live list, and
     * {@link #close()} detaches the appender so that no later test's events reach it.
     */
    static final class CapturedLog implements AutoCloseable {

        private final Logger logger;
        private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

        private CapturedLog(Logger logger) {
            this.logger = logger;
            appender.start();
            logger.addAppender(appender);
        }

        static CapturedLog of(String loggerName) {
            return new CapturedLog((Logger) LoggerFactory.getLogger(loggerName));
        }

        /** The events so far, copied. */
        List<ILoggingEvent> events() {
            synchronized (appender) {
                return List.copyOf(appender.list);
            }
        }

        @Override
        public void close() {
            logger.detachAppender(appender);
            appender.stop();
        }
    }

    /** The in-memory store behind a switch: while down, every call fails as a lost connection does. */
    static final class Switch {
        volatile boolean down;

        StateStore around(StateStore real) {
            InvocationHandler handler = (proxy, method, args) -> {
                if (down && method.getDeclaringClass() == StateStore.class) {
                    throw new IllegalStateException("the state store is down (test)");
                }
                try {
                    return method.invoke(real, args);
                } catch (java.lang.reflect.InvocationTargetException e) {
                    throw e.getCause();
                }
            };
            return (StateStore) Proxy.newProxyInstance(StateStore.class.getClassLoader(),
                    new Class<?>[] { StateStore.class }, handler);
        }
    }
}
