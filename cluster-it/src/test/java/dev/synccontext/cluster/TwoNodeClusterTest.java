package dev.synccontext.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.RendererSyncContext;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Two nodes of {@link ClusterApp} in this JVM ({@link TwoNodeCluster}), sharing a real {@code redis-server}
 * through Spring Session Data Redis with one repository type. The tests that hold for both repository types live
 * here; {@link DefaultRepositoryClusterTest} and {@link IndexedRepositoryClusterTest} say how sessions end (idle
 * eviction, or Spring Session's destroyed events on every node) and add their own.
 */
abstract class TwoNodeClusterTest extends TwoNodeCluster {

    static final String HANDLE_FIELD = "sessionAttr:dev.synccontext.session";

    /** Whether ended sessions are announced to every node (indexed) or found by idle eviction (default). */
    final boolean sessionsEndByEvents;

    TwoNodeClusterTest(String repositoryType, Map<String, String> nodeProperties, boolean sessionsEndByEvents) {
        super(ClusterApp.class, repositoryType, nodeProperties);
        this.sessionsEndByEvents = sessionsEndByEvents;
    }

    // ---------------------------------------------------------------- T1

    @Test
    void sessionsSaveWithoutSerializationErrorsAndRedisHoldsOnlyTheHandle() {
        Client alice = new Client();
        for (int i = 1; i <= 3; i++) {
            Client.Reply reply = alice.post(nodeA.port, "/increment");
            assertThat(reply.status()).as("request %d on node-a: %s", i, reply.body()).isEqualTo(200);
            assertThat(reply.body()).isEqualTo(String.valueOf(i));
        }
        Client.Reply onB = alice.post(nodeB.port, "/increment").asserted200();
        assertThat(onB.body()).as("node-b continues the session's Serializable state").isEqualTo("4");

        Map<String, byte[]> hash = redisClient.hash(sessionKey(alice));
        assertThat(new TreeSet<>(hash.keySet())).as("fields of the session's hash in Redis").isEqualTo(new TreeSet<>(Set.of(
                "creationTime", "lastAccessedTime", "maxInactiveInterval", "sessionAttr:count", HANDLE_FIELD)));
        String handle = handleIn(hash);
        assertThat(handle).matches("[A-Za-z0-9_-]{16}@node-b");
        int bytes = HANDLE_FIELD.getBytes(StandardCharsets.UTF_8).length + hash.get(HANDLE_FIELD).length;
        System.out.printf("[figure] %s repository: bytes added per session in Redis (field name + serialized value): %d"
                + " (value %s)%n", repositoryType, bytes, handle);
        assertThat(bytes).as("bytes the handle adds to the session's hash").isLessThan(100);
        alice.post(nodeB.port, "/logout");
    }

    @Test
    void theHandleIsWrittenOnceAndAgainOnlyWhenTheSessionMovesToAnotherNode() throws Exception {
        Client bob = new Client();
        try (RedisMonitor monitor = new RedisMonitor(redis.port)) {
            assertThat(bob.post(nodeA.port, "/increment").ok()).isTrue();
            monitor.sync(redisClient);
            long afterFirst = monitor.count(HANDLE_FIELD);
            // The indexed repository also publishes the new session's attributes on its "created" channel.
            assertThat(afterFirst).as("the first request writes the handle").isBetween(1L, 2L);

            int later = 50;
            for (int i = 0; i < later; i++) {
                assertThat(bob.post(nodeA.port, "/increment").ok()).isTrue();
            }
            monitor.sync(redisClient);
            long writesAfterFirst = monitor.count(HANDLE_FIELD) - afterFirst;
            System.out.printf("[figure] %s repository: Redis commands touching the handle in %d requests after the"
                    + " first: %d%n", repositoryType, later, writesAfterFirst);
            assertThat(writesAfterFirst).as("no Redis write for the handle after the first request").isZero();

            assertThat(bob.post(nodeB.port, "/increment").ok()).isTrue();
            assertThat(bob.post(nodeB.port, "/increment").ok()).isTrue();
            monitor.sync(redisClient);
            assertThat(monitor.count(HANDLE_FIELD) - afterFirst).as("moving to node-b rewrites it once").isEqualTo(1);
        }
        bob.post(nodeB.port, "/logout");
    }

    @Test
    void contextScopedStateIsNodeLocalAndNothingOfItReachesRedis() throws Exception {
        Client carol = new Client();
        assertThat(carol.post(nodeA.port, "/increment").ok()).as("the session exists, with its handle").isTrue();
        Set<String> fieldsBefore = new TreeSet<>(redisClient.hash(sessionKey(carol)).keySet());
        try (RedisMonitor monitor = new RedisMonitor(redis.port)) {
            for (int i = 1; i <= 3; i++) {
                Client.Reply reply = carol.post(nodeA.port, "/scoped").asserted200();
                assertThat(reply.body()).as("node-a's instance for this session").isEqualTo(String.valueOf(i));
            }
            Client.Reply onB = carol.post(nodeB.port, "/scoped");
            assertThat(onB.body()).as("node-b has an instance of its own: the state is node-local").isEqualTo("1");
            assertThat(carol.post(nodeA.port, "/scoped").body()).as("node-a's instance is still there").isEqualTo("4");
            monitor.sync(redisClient);
            assertThat(monitor.lines()).as("Redis commands while the session used its context-scoped bean")
                    .isNotEmpty()
                    .noneMatch(line -> line.contains(ClusterApp.SCOPED_MARKER) || line.contains("ScopedTally")
                            || line.contains("scopedTally"));
        }
        assertThat(new TreeSet<>(redisClient.hash(sessionKey(carol)).keySet()))
                .as("the session's fields in Redis are the same as before the context-scoped calls")
                .isEqualTo(fieldsBefore);
        carol.post(nodeA.port, "/logout");
    }

    // ---------------------------------------------------------------- T6

    @Test
    void changingTheSessionIdKeepsTheSameContext() {
        Client carol = new Client();
        Client.Reply before = carol.get(nodeA.port, "/context").asserted200();
        String idBefore = carol.sessionId();
        Client.Reply afterLogin = carol.post(nodeA.port, "/login").asserted200();
        assertThat(carol.sessionId()).as("the session id changed").isNotEqualTo(idBefore);
        assertThat(afterLogin.body()).as("same context after changeSessionId, in the same request").isEqualTo(before.body());
        assertThat(carol.get(nodeA.port, "/context").body()).as("and on the next request").isEqualTo(before.body());
        assertThat(redisClient.keys(namespace + ":sessions:" + idBefore)).as("the old id is gone from Redis").isEmpty();
        assertThat(handleIn(redisClient.hash(sessionKey(carol)))).as("the handle moved with the session").endsWith("@node-a");
        carol.post(nodeA.port, "/logout");
    }

    // ---------------------------------------------------------------- T3

    @Test
    void endingASessionOnNodeAClosesItsContextOnNodeB() throws Exception {
        int sessions = 100;
        Latencies latencies = new Latencies();
        try (CloseWatcher watcher = new CloseWatcher()) {
            List<Client> clients = new ArrayList<>();
            List<RendererSyncContext> onB = new ArrayList<>();
            long[] lastUseOnB = new long[sessions];
            for (int i = 0; i < sessions; i++) {
                Client client = new Client();
                lastUseOnB[i] = System.nanoTime(); // before the request: its bind on B, the last use, comes after
                assertThat(client.post(nodeB.port, "/increment").ok()).isTrue();
                String handle = handleIn(redisClient.hash(sessionKey(client)));
                RendererSyncContext context = nodeB.sessions().find(handle)
                        .orElseThrow(() -> new AssertionError("node-b has no context for " + handle));
                watcher.watch(context);
                onB.add(context);
                clients.add(client);
                assertThat(client.post(nodeA.port, "/increment").ok()).isTrue(); // a hand-off to A; B keeps its context
            }
            long[] endedAt = new long[sessions];
            for (int i = 0; i < sessions; i++) {
                endedAt[i] = System.nanoTime();
                assertThat(clients.get(i).post(nodeA.port, "/logout").ok()).isTrue();
            }
            for (int i = 0; i < sessions; i++) {
                long closedAt = watcher.closedAt(onB.get(i), Duration.ofSeconds(60));
                // Events: from the session's end on A. Idle eviction: from the session's last request on B.
                latencies.add(closedAt - (sessionsEndByEvents ? endedAt[i] : lastUseOnB[i]));
            }
        }
        System.out.printf("[figure] %s repository: close latency on node-b, %s: %s%n", repositoryType,
                sessionsEndByEvents ? "after the session ended on node-a (SessionDeletedEvent)"
                        : "after the session's last request on node-b was sent (idle eviction, idle timeout "
                                + nodeB.sessions().idleTimeout().toMillis() + " ms)", latencies.summary());
        long idleMillis = nodeB.sessions().idleTimeout().toMillis();
        if (sessionsEndByEvents) {
            assertThat(latencies.percentileMillis(99)).as("the event path does not wait for idle eviction")
                    .isLessThan(idleMillis);
        } else {
            assertThat(latencies.percentileMillis(0)).as("idle eviction never closes a context before its idle timeout")
                    .isGreaterThanOrEqualTo((double) idleMillis);
            assertThat(latencies.percentileMillis(99)).as("and closes it within a few eviction ticks after it")
                    .isLessThan(idleMillis + 5_000.0);
        }
    }

    // ---------------------------------------------------------------- T4

    @Test
    void aThousandExpiredSessionsLeaveNoContextOnEitherNode() throws Exception {
        awaitNoSessionContexts(Duration.ofSeconds(30)); // the other tests end their sessions: start from zero
        long forcedBefore = nodeA.registry().forcedCloses() + nodeB.registry().forcedCloses();
        int sessions = 1000;
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> all = new ArrayList<>();
            for (int i = 0; i < sessions; i++) {
                all.add(pool.submit(() -> {
                    // The short timeout comes with the session's last request: given on node-a, the session could
                    // expire before a loaded machine ran its request on node-b, which then served a new session
                    // (default timeout, 30 min) whose context rightly stayed open past this test.
                    Client client = new Client();
                    client.post(nodeA.port, "/increment").asserted200();
                    String session = client.sessionId();
                    client.post(nodeB.port, "/timeout?seconds=2").asserted200();
                    assertThat(client.sessionId()).as("node-b served the session node-a started").isEqualTo(session);
                }));
            }
            for (Future<?> f : all) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        int openA = nodeA.openSessionContexts();
        int openB = nodeB.openSessionContexts();
        System.out.printf("[figure] %s repository: open session contexts with %d live sessions: node-a %d, node-b %d%n",
                repositoryType, sessions, openA, openB);
        long start = System.nanoTime();
        awaitNoSessionContexts(Duration.ofSeconds(120));
        long forcedAfter = nodeA.registry().forcedCloses() + nodeB.registry().forcedCloses();
        System.out.printf("[figure] %s repository: after %d expiries (timeout 2 s): contexts node-a %d / node-b %d,"
                + " closing %d / %d, forced closes %d, %.1f s after the last request%n", repositoryType, sessions,
                nodeA.openSessionContexts(), nodeB.openSessionContexts(), nodeA.registry().closingContexts(),
                nodeB.registry().closingContexts(), forcedAfter - forcedBefore, (System.nanoTime() - start) / 1e9);
        assertThat(forcedAfter - forcedBefore).as("no context needed a forced close").isZero();
        if (sessionsEndByEvents) {
            assertThat(nodeA.sessions().idleEvictions() + nodeB.sessions().idleEvictions())
                    .as("with events, idle eviction (an hour here) had nothing to do").isZero();
        }
    }

    void awaitNoSessionContexts(Duration timeout) {
        await().atMost(timeout).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
            assertThat(nodeA.openSessionContexts()).as("open session contexts on node-a").isZero();
            assertThat(nodeB.openSessionContexts()).as("open session contexts on node-b").isZero();
            assertThat(nodeA.registry().closingContexts()).as("closing on node-a").isZero();
            assertThat(nodeB.registry().closingContexts()).as("closing on node-b").isZero();
        });
    }

    // ---------------------------------------------------------------- helpers

    String sessionKey(Client client) {
        return namespace + ":sessions:" + client.sessionId();
    }

    /** The handle, as Spring Session stored it: a JDK-serialized String (0xACED 0005, 't', 2-byte length). */
    static String handleIn(Map<String, byte[]> hash) {
        byte[] value = hash.get(HANDLE_FIELD);
        assertThat(value).as("the session's hash has the handle").isNotNull();
        assertThat(Arrays.copyOf(value, 5)).as("a serialized java.lang.String")
                .isEqualTo(new byte[] { (byte) 0xAC, (byte) 0xED, 0, 5, 't' });
        return new String(value, 7, value.length - 7, StandardCharsets.UTF_8);
    }
}
