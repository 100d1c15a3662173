package dev.synccontext.test.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.spring.durable.StateStore;
import dev.synccontext.spring.durable.session.DurableCounters;
import dev.synccontext.test.SyncContextTestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;

/**
 * The cluster scenarios of durable state, on the kit's in-memory cluster: each builds a two-node cluster on the given
 * kit, runs clients against it while a script kills, deploys or stalls a node, and asserts what
 * {@code spring/DURABLE-STATE.md} promises. Run by the explorer over many seeds ({@link ClusterScenariosTest}) and,
 * with a store that breaks a guarantee, as premises ({@link ClusterPremisesTest}).
 */
final class ClusterScenarios {

    static final Duration TTL = Duration.ofSeconds(3);
    static final Duration HAND_OFF = Duration.ofSeconds(1);
    static final Duration DEBOUNCE = Duration.ofMillis(200);
    static final Duration THINK = Duration.ofMillis(50);
    private static final Duration STEP = Duration.ofMillis(50);
    private static final Duration GIVE_UP = Duration.ofSeconds(60);

    private ClusterScenarios() {
    }

    static InMemoryCluster.Builder cluster(SyncContextTestKit kit, UnaryOperator<StateStore> store) {
        return InMemoryCluster.builder(kit).nodes("a", "b").durable(Counter.class).store(store).nodeLeaseTtl(TTL)
                .handOffTimeout(HAND_OFF).debounce(DEBOUNCE);
    }

    /**
     * Rolling deploy under load, with affinity: a stops gracefully (its sessions go to b), starts again (they come
     * back: hand-offs), then b does the same. Every session's final count equals its acknowledged increments, and
     * its answers are 1, 2, 3, ... in order: one history, nothing lost, nothing seen twice.
     */
    static void rollingDeploy(SyncContextTestKit kit, UnaryOperator<StateStore> store) {
        InMemoryCluster cluster = cluster(kit, store).build();
        Map<String, Integer> shares = shares(4, 20);
        Clients clients = Clients.through(cluster, kit, THINK);
        shares.forEach(clients::start);
        at(kit, Duration.ofMillis(300), () -> cluster.node("a").stop());
        at(kit, Duration.ofMillis(450), () -> cluster.node("a").start());
        at(kit, Duration.ofMillis(600), () -> cluster.node("b").stop());
        at(kit, Duration.ofMillis(750), () -> cluster.node("b").start());
        runUntil(kit, () -> clients.done(shares));

        for (String session : shares.keySet()) {
            Clients.Log log = clients.logs.get(session);
            assertThat(log.values()).as("session %s: one history across the deploys (answers in order)", session)
                    .containsExactlyElementsOf(IntStream.rangeClosed(1, log.acks.size()).boxed().toList());
            assertThat(read(kit, cluster, session)).as("session %s: final count = acknowledged increments", session)
                    .isEqualTo(log.acks.size());
        }
        finish(kit, cluster);
    }

    /**
     * Node a is killed under load; a's sessions wait for its lease to expire and resume on b from their last
     * accepted snapshot. A session loses at most the increments a acknowledged during the last debounce before the
     * kill (what no snapshot had written yet); sessions of b lose nothing.
     */
    static void kill(SyncContextTestKit kit, UnaryOperator<StateStore> store) {
        InMemoryCluster cluster = cluster(kit, store).build();
        Map<String, Integer> shares = shares(4, 30);
        Clients clients = Clients.through(cluster, kit, THINK);
        shares.forEach(clients::start);
        Duration killAt = Duration.ofMillis(500);
        at(kit, killAt, () -> cluster.node("a").kill());
        at(kit, Duration.ofSeconds(6), () -> cluster.node("a").start());
        runUntil(kit, () -> clients.done(shares));

        long kill = killAt.toNanos();
        for (String session : shares.keySet()) {
            Clients.Log log = clients.logs.get(session);
            int acked = log.acks.size();
            long bound = log.ackedBy("a", kill - DEBOUNCE.toNanos(), kill + 1);
            int lost = acked - read(kit, cluster, session);
            assertThat(lost).as("session %s: increments lost by the kill (acknowledged %s, answers %s), at most those"
                    + " a acknowledged in the last debounce before it (%s)", session, acked, log.values(), bound)
                    .isBetween(0, (int) bound);
        }
        finish(kit, cluster);
    }

    /**
     * No affinity: every request goes to the next node, so every switch of node is a hand-off. The counts are exact
     * and each session's answers are 1, 2, 3, ...: no two callbacks of one session ever saw the same state, which
     * is what an overlap of its callbacks on two nodes would show.
     */
    static void roundRobin(SyncContextTestKit kit, UnaryOperator<StateStore> store) {
        InMemoryCluster cluster = cluster(kit, store).routing(Routing.roundRobin()).build();
        Map<String, Integer> shares = shares(3, 12);
        Clients clients = Clients.through(cluster, kit, THINK);
        shares.forEach(clients::start);
        runUntil(kit, () -> clients.done(shares));

        for (String session : shares.keySet()) {
            Clients.Log log = clients.logs.get(session);
            assertThat(log.values()).as("session %s: no overlap across nodes (answers in order)", session)
                    .containsExactlyElementsOf(IntStream.rangeClosed(1, log.acks.size()).boxed().toList());
            assertThat(read(kit, cluster, session)).as("session %s: exact count", session).isEqualTo(log.acks.size());
            assertThat(log.ackedBy("b", 0, Long.MAX_VALUE)).as("session %s: b served some requests", session)
                    .isPositive();
        }
        finish(kit, cluster);
    }

    /**
     * The owner stalls past its lease while it holds a pending write and a request that arrived during the stall;
     * b takes the session over after the lease expires; then a resumes. Its late write is refused, the held
     * request is not answered from the stale copy, and nothing b acknowledged is lost: the session loses at most
     * what a acknowledged in the last debounce before the stall (as a kill would).
     */
    static void stalledOwner(SyncContextTestKit kit, UnaryOperator<StateStore> store) {
        InMemoryCluster cluster = cluster(kit, store).routing(firstUp()).build();
        String session = "s0";
        Map<String, Integer> shares = Map.of(session, 40);
        Clients clients = Clients.through(cluster, kit, THINK);
        shares.forEach(clients::start);
        Duration pauseAt = Duration.ofMillis(500);
        List<CompletableFuture<Clients.Ack>> held = new ArrayList<>();
        at(kit, pauseAt, () -> {
            cluster.node("a").pause();
            held.add(cluster.node("a").call(session, call -> new Clients.Ack(call.bean(Counter.class).increment(),
                    kit.clock().nanoTime(), call.node())));
        });
        at(kit, Duration.ofSeconds(6), () -> cluster.node("a").resume());
        runUntil(kit, () -> clients.done(shares) && !held.isEmpty() && held.get(0).isDone());

        Clients.Log log = clients.logs.get(session);
        long pause = pauseAt.toNanos();
        List<Clients.Ack> afterPause = new ArrayList<>(log.acks.stream().filter(a -> a.atNanos() > pause).toList());
        if (!held.get(0).isCompletedExceptionally()) {
            afterPause.add(held.get(0).join());
        }
        afterPause.sort(Comparator.comparingLong(Clients.Ack::atNanos).thenComparingInt(Clients.Ack::value));
        int acked = log.acks.size() + (held.get(0).isCompletedExceptionally() ? 0 : 1);
        long bound = log.ackedBy("a", pause - DEBOUNCE.toNanos(), pause + 1);
        int finalCount = read(kit, cluster, session);
        int lost = acked - finalCount;
        assertThat(log.ackedBy("b", 0, Long.MAX_VALUE)).as("b took the session over").isPositive();
        List<Integer> values = afterPause.stream().map(Clients.Ack::value).toList();
        assertThat(values).as("answers after the stall (the held request's included): one history ending at the"
                + " final count; a stale copy would answer a count seen before").isNotEmpty()
                .containsExactlyElementsOf(IntStream.rangeClosed(finalCount - values.size() + 1, finalCount).boxed()
                        .toList());
        assertThat(lost).as("increments lost (acknowledged %s, answers %s, held request %s), at most those a"
                + " acknowledged in the last debounce before its stall (%s)", acked, log.values(), held.get(0), bound)
                .isBetween(0, (int) bound);
        if (lost > 0) {
            DurableCounters a = cluster.node("a").counters();
            assertThat(a.rejected() + a.staleCopiesDropped()).as("a's stale copy: its late write refused by the"
                    + " store, or the copy dropped unwritten when a found its lease had lapsed").isPositive();
        }
        finish(kit, cluster);
    }

    /** Routes to the first node that is up (a stalled node is skipped, as a load balancer's health check does). */
    static Routing firstUp() {
        return (session, nodes) -> nodes.stream().filter(n -> n.state() == ClusterNode.State.UP).findFirst()
                .orElse(nodes.get(0));
    }

    static Map<String, Integer> shares(int sessions, int each) {
        Map<String, Integer> shares = new LinkedHashMap<>();
        for (int i = 0; i < sessions; i++) {
            shares.put("s" + i, each);
        }
        return shares;
    }

    /** Runs {@code step} as a task of the kit at virtual time {@code when}, so the explorer interleaves it. */
    static void at(SyncContextTestKit kit, Duration when, Runnable step) {
        kit.clock().schedule(() -> kit.executor().execute(step), when.minus(kit.currentTime()));
    }

    static void runUntil(SyncContextTestKit kit, java.util.function.BooleanSupplier done) {
        Duration until = kit.currentTime().plus(GIVE_UP);
        while (!done.getAsBoolean()) {
            assertThat(kit.currentTime()).as("the scenario is done within %s of virtual time", GIVE_UP)
                    .isLessThan(until);
            kit.advanceBy(STEP);
        }
    }

    /** The session's count, read through the load balancer once everything settled. */
    static int read(SyncContextTestKit kit, InMemoryCluster cluster, String session) {
        for (int attempt = 0; attempt < 20; attempt++) {
            CompletableFuture<Integer> count = cluster.call(session, call -> call.bean(Counter.class).getCount());
            runUntil(kit, count::isDone);
            if (!count.isCompletedExceptionally()) {
                return count.join();
            }
            kit.advanceBy(HAND_OFF);
        }
        throw new AssertionError("session " + session + " could not be read in 20 attempts");
    }

    static void finish(SyncContextTestKit kit, InMemoryCluster cluster) {
        cluster.close();
        kit.runUntilIdle();
        kit.takeFailures();
    }
}
