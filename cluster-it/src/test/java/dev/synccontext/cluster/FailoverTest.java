package dev.synccontext.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * T2: node A is a child JVM, killed with SIGKILL while sessions it serves are clicking through nginx
 * (affinity); nginx moves them to node B, which makes each a fresh context (a hand-off), and every
 * increment acknowledged before the kill is still counted: that state lived in the session (Redis),
 * not in the context.
 */
@Tag("cluster")
class FailoverTest {

    static final int SESSIONS = 6;
    static final int ACKS_BEFORE_KILL = 20;
    static final int ACKS_AFTER_KILL = 20;

    @Test
    void aKilledNodesSessionsContinueOnTheOtherNodeWithNoAcknowledgedIncrementLost() throws Exception {
        String namespace = "it:failover";
        try (RedisServer redis = RedisServer.start();
                ChildNode nodeA = ChildNode.start("node-a", redis.port, "default", namespace,
                        Map.of("synccontext.session.idle-timeout", "1h"));
                Node nodeB = Node.start("node-b", redis.port, "default", namespace,
                        Map.of("synccontext.session.idle-timeout", "1h"));
                Nginx nginx = Nginx.start(Nginx.Balancing.AFFINITY, List.of(nodeA.port, nodeB.port))) {

            List<Client> onA = sessionsRoutedTo("node-a", nginx.port);
            CountDownLatch warmedUp = new CountDownLatch(SESSIONS);
            AtomicBoolean killed = new AtomicBoolean();
            long[] killedAt = new long[1];
            ExecutorService pool = Executors.newFixedThreadPool(SESSIONS);
            List<Future<SessionRun>> runs = new ArrayList<>();
            for (Client client : onA) {
                runs.add(pool.submit(() -> run(client, nginx.port, warmedUp, killed)));
            }
            assertThat(warmedUp.await(60, TimeUnit.SECONDS)).as("every session got %d acks on node-a", ACKS_BEFORE_KILL)
                    .isTrue();
            killed.set(true); // first: a request that fails from here on is one the kill may have hit
            killedAt[0] = System.nanoTime();
            nodeA.kill();
            assertThat(nodeA.isAlive()).as("node-a was killed").isFalse();

            Latencies recovery = new Latencies();
            int failed = 0;
            for (Future<SessionRun> future : runs) {
                SessionRun run = future.get(120, TimeUnit.SECONDS);
                failed += run.failedAfterKill;
                recovery.add(run.firstGoodAfterKillNanos - killedAt[0]);
                assertThat(run.acknowledged).as("acknowledged values of one session increase by one, except across"
                        + " the kill, where an unacknowledged increment may have been applied").isSorted();
                for (int i = 1; i < run.acknowledged.size(); i++) {
                    int step = run.acknowledged.get(i) - run.acknowledged.get(i - 1);
                    assertThat(step).as("step %d of %s", i, run.acknowledged).isBetween(1, 1 + run.failedAfterKill);
                }
                assertThat(run.lastNode).as("answered by node-b after the kill").isEqualTo("node-b");
            }
            pool.shutdown();
            System.out.printf("[figure] failover (SIGKILL of node-a, %d sessions via nginx affinity): failed requests"
                    + " %d, time from the kill to each session's first good answer: %s; hand-offs on node-b %d%n",
                    SESSIONS, failed, recovery.summary(), nodeB.sessions().handoffs());
            assertThat(nodeB.sessions().handoffs()).as("node-b took every session over").isGreaterThanOrEqualTo(SESSIONS);
            assertThat(nodeB.sessions().splits()).isZero();
        }
    }

    /** One session's requests: the values acknowledged, failures after the kill, when it recovered. */
    static final class SessionRun {
        final List<Integer> acknowledged = new ArrayList<>();
        int failedAfterKill;
        long firstGoodAfterKillNanos;
        String lastNode = "";
    }

    private static SessionRun run(Client client, int port, CountDownLatch warmedUp, AtomicBoolean killed) {
        SessionRun run = new SessionRun();
        int afterKill = 0;
        long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (afterKill < ACKS_AFTER_KILL && System.nanoTime() < deadline) {
            boolean killedBefore = killed.get();
            Client.Reply reply = client.post(port, "/increment");
            if (!reply.ok()) {
                assertThat(killedBefore || killed.get()).as("a request failed before the kill: %s %s", reply.status(),
                        reply.failure()).isTrue();
                run.failedAfterKill++;
                continue;
            }
            run.acknowledged.add(Integer.parseInt(reply.body()));
            run.lastNode = reply.node();
            if (run.acknowledged.size() == ACKS_BEFORE_KILL) {
                warmedUp.countDown();
            }
            if (killedBefore) {
                if (afterKill == 0) {
                    run.firstGoodAfterKillNanos = System.nanoTime();
                }
                afterKill++;
            }
        }
        assertThat(afterKill).as("acks after the kill").isEqualTo(ACKS_AFTER_KILL);
        return run;
    }

    /** Fresh sessions (route cookies) until {@link #SESSIONS} of them are served by {@code node}. */
    private static List<Client> sessionsRoutedTo(String node, int port) {
        List<Client> routed = new ArrayList<>();
        for (int attempt = 0; routed.size() < SESSIONS && attempt < 200; attempt++) {
            Client client = new Client().withRoute();
            Client.Reply first = client.get(port, "/context").asserted200();
            if (first.node().equals(node)) {
                routed.add(client);
            }
        }
        assertThat(routed).as("sessions that nginx routes to %s", node).hasSize(SESSIONS);
        return routed;
    }
}
