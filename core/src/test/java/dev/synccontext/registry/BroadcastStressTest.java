package dev.synccontext.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.testing.Race;
import dev.synccontext.testing.StressSeed;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A broadcast (synchronous, or paced: {@code broadcastAsync}) to 10,000 contexts while another thread closes a third of them (released gracefully, closed
 * directly, or force-closed with {@code closeNow()}): it never throws, every context open throughout gets
 * the callback exactly once, and every context is accounted for: delivered (ran, or handed back by a
 * forced close) or refused (counted by the registry).
 */
class BroadcastStressTest {

    private static final int CONTEXTS = 10_000;
    private static final int ROUNDS = 5;
    /** How long a round may wait for the closer, then the broadcast: only to end a hung round. */
    private static final Duration PATIENCE = Duration.ofMinutes(2);

    @Test
    void aBroadcastWhileContextsCloseReachesEveryOpenOneOnceAndCountsEachRefusal() throws Exception {
        stress(false);
    }

    @Test
    void aPacedBroadcastWhileContextsCloseReachesEveryOpenOneOnceAndCountsEachRefusal() throws Exception {
        stress(true);
    }

    private static void stress(boolean paced) throws Exception {
        long seed = StressSeed.announce(BroadcastStressTest.class);
        SplittableRandom random = new SplittableRandom(seed);
        for (int round = 0; round < ROUNDS; round++) {
            runRound(random.split(), seed, round, paced);
        }
    }

    private static void runRound(SplittableRandom random, long seed, int round, boolean paced) throws Exception {
        SyncContextRegistry registry = new SyncContextRegistry(
                ContextTemplate.defaults(RendererSyncContext.defaultExecutor(), "default"));
        try {
            List<RendererSyncContext> all = new ArrayList<>();
            for (int i = 0; i < CONTEXTS; i++) {
                all.add(registry.create("session"));
            }
            List<RendererSyncContext> doomed = new ArrayList<>(all);
            Collections.shuffle(doomed, new java.util.Random(random.nextLong()));
            doomed = doomed.subList(0, CONTEXTS / 3);
            Map<RendererSyncContext, AtomicInteger> received = new ConcurrentHashMap<>();
            Runnable callback = () -> received.computeIfAbsent(RendererSyncContext.current().orElseThrow(),
                    c -> new AtomicInteger()).incrementAndGet();

            AtomicInteger handedBack = new AtomicInteger();
            List<RendererSyncContext> closing = doomed;
            Callable<Broadcast> closer = () -> {
                int kind = 0;
                for (RendererSyncContext context : closing) {
                    switch (kind++ % 3) {
                        case 0 -> registry.release(context);
                        case 1 -> context.close();
                        default -> handedBack.addAndGet((int) context.closeNow().stream().filter(p -> p == callback).count());
                    }
                }
                return null; // no answer of its own: the broadcast's counts say what it did
            };
            Callable<Broadcast> broadcaster = () -> paced
                    ? registry.broadcastAsync(context -> true, callback).toCompletableFuture().get(60, TimeUnit.SECONDS)
                    : registry.broadcast(callback);
            long refusedBefore = registry.refusedCallbacks();
            Broadcast result = Race.run(PATIENCE, List.of(closer, broadcaster)).get(1);
            for (RendererSyncContext context : all) {
                if (!context.isClosed()) {
                    context.close();
                }
                assertThat(context.awaitTermination(Duration.ofSeconds(30))).isTrue();
            }

            String where = (paced ? "paced, " : "") + "seed " + seed + ", round " + round + ": ";
            List<RendererSyncContext> survivors = new ArrayList<>(all);
            survivors.removeAll(doomed);
            for (RendererSyncContext open : survivors) {
                AtomicInteger got = received.get(open);
                assertThat(got).describedAs(where + "open throughout, %s must get it", open.name()).isNotNull();
                assertThat(got.get()).describedAs(where + "%s got it more than once", open.name()).isEqualTo(1);
            }
            int ran = received.values().stream().mapToInt(AtomicInteger::get).sum();
            assertThat(received.values()).allSatisfy(n -> assertThat(n.get()).isEqualTo(1));
            assertThat(ran + handedBack.get()).describedAs(where + "delivered = ran + handed back by closeNow")
                    .isEqualTo(result.delivered());
            assertThat(registry.refusedCallbacks() - refusedBefore).describedAs(where + "each refusal counted")
                    .isEqualTo(result.refused());
            assertThat(result.attempted()).describedAs(where + "no context visited twice").isLessThanOrEqualTo(CONTEXTS);
            assertThat(result.delivered()).isGreaterThanOrEqualTo(survivors.size());
            System.out.printf((paced ? "paced " : "") + "round %d: delivered %d (ran %d, handed back %d), refused %d%n", round,
                    result.delivered(), ran, handedBack.get(), result.refused());
        } finally {
            registry.close();
        }
    }
}
