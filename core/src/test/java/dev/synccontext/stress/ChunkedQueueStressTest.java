package dev.synccontext.stress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.testing.NoThreadLeftStuck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The chunked queue under many producers ({@code CallbackQueue}, {@code QueueChunk}): bursts of every
 * size, so that chunks fill (16, 32, ... 1,024 slots), new ones are linked by racing producers, the queue
 * empties, drops its chunks and restarts its sequence, again and again. Each test checks, on every run:
 * one callback at a time, FIFO per producer, nothing lost or run twice; {@code closeNow()} racing the
 * producers hands back exactly the accepted work that did not run; a queue bound admits exactly its
 * limit. On the default executor (the pool a user gets). Rounds scale with {@code -Dstress.scale}; the
 * seed is printed.
 */
// Hang guard only (a stalled drain fails instead of stalling the build), never a speed bound.
@Timeout(value = 3, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ChunkedQueueStressTest {

    private static final double SCALE = Double.parseDouble(System.getProperty("stress.scale", "1"));
    private static final int PRODUCERS = 8;

    @RegisterExtension
    final NoThreadLeftStuck threads = new NoThreadLeftStuck(Duration.ofMinutes(1));

    private final long seed = Long.getLong("stress.seed", System.nanoTime());

    @Test
    void manyProducersInBurstsAcrossChunksAndRestartsLoseNothingAndKeepEachProducersOrder() throws Exception {
        System.out.println("ChunkedQueueStressTest seed " + seed);
        int rounds = (int) (40 * SCALE);
        for (int round = 0; round < rounds; round++) {
            SplittableRandom random = new SplittableRandom(seed + round);
            RendererSyncContext ctx = RendererSyncContext.builder().name("chunks-" + round)
                    .maxBatch(1 + random.nextInt(300)).build();
            Ledger ledger = new Ledger(ctx, PRODUCERS);
            int[] sent = new int[PRODUCERS];
            List<CompletableFuture<?>> futures = Collections.synchronizedList(new ArrayList<>());
            CyclicBarrier start = new CyclicBarrier(PRODUCERS);
            List<Thread> producers = new ArrayList<>();
            for (int p = 0; p < PRODUCERS; p++) {
                int producer = p;
                long producerSeed = random.nextLong();
                producers.add(new Thread(() -> {
                    SplittableRandom r = new SplittableRandom(producerSeed);
                    await(start);
                    int bursts = 2 + r.nextInt(6);
                    for (int b = 0; b < bursts; b++) {
                        int size = r.nextInt(4) == 0 ? r.nextInt(3_000) : r.nextInt(40);
                        for (int i = 0; i < size; i++) {
                            int n = sent[producer]++;
                            if (r.nextInt(8) == 0) {
                                futures.add(ctx.invokeAsync(() -> ledger.record(producer, n)));
                            } else {
                                ctx.post(() -> ledger.record(producer, n));
                            }
                        }
                        if (r.nextBoolean()) {
                            // Let the queue run dry now and then: the chunks are dropped and the sequence restarts.
                            join(ctx.invokeAsync(() -> { }));
                        }
                    }
                }, "chunk-producer-" + p));
            }
            producers.forEach(Thread::start);
            for (Thread t : producers) {
                t.join(TimeUnit.MINUTES.toMillis(1));
            }
            join(ctx.invokeAsync(() -> { })); // every post accepted before this one has run
            for (CompletableFuture<?> f : futures) {
                join(f);
            }
            assertThat(ledger.violation).as("seed %d round %d", seed, round).isNull();
            for (int p = 0; p < PRODUCERS; p++) {
                assertThat(ledger.seen[p]).as("callbacks run of producer %d, seed %d round %d", p, seed, round)
                        .isEqualTo(sent[p]);
            }
            awaitDepthZero(ctx); // the last callback's progress is recorded just after it returns
        }
    }

    @Test
    void closeNowRacingProducersHandsBackExactlyTheAcceptedWorkThatDidNotRun() throws Exception {
        System.out.println("ChunkedQueueStressTest seed " + seed);
        int rounds = (int) (150 * SCALE);
        for (int round = 0; round < rounds; round++) {
            SplittableRandom random = new SplittableRandom(seed + round);
            RendererSyncContext ctx = RendererSyncContext.builder().name("close-now-" + round)
                    .maxBatch(1 + random.nextInt(100)).build();
            AtomicInteger started = new AtomicInteger();
            AtomicInteger startedAfterCloseNow = new AtomicInteger();
            CountDownLatch someRan = new CountDownLatch(1 + random.nextInt(200));
            boolean[] closeNowReturned = new boolean[1];
            Object lock = new Object();
            Set<Runnable> accepted = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
            Set<Runnable> ran = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
            List<CompletableFuture<?>> futures = Collections.synchronizedList(new ArrayList<>());
            CyclicBarrier go = new CyclicBarrier(PRODUCERS / 2 + 1);
            List<Thread> producers = new ArrayList<>();
            for (int p = 0; p < PRODUCERS / 2; p++) {
                long producerSeed = random.nextLong();
                producers.add(new Thread(() -> {
                    SplittableRandom r = new SplittableRandom(producerSeed);
                    await(go);
                    for (int i = 0; i < 3_000; i++) {
                        Runnable[] self = new Runnable[1];
                        self[0] = () -> {
                            started.incrementAndGet();
                            synchronized (lock) {
                                if (closeNowReturned[0]) {
                                    startedAfterCloseNow.incrementAndGet();
                                }
                            }
                            ran.add(self[0]);
                            someRan.countDown();
                        };
                        try {
                            if (r.nextInt(5) == 0) {
                                futures.add(ctx.invokeAsync(self[0]));
                            } else {
                                ctx.post(self[0]);
                                accepted.add(self[0]);
                            }
                        } catch (RejectedExecutionException closed) {
                            return; // closed: this one was not accepted, and none after it will be
                        }
                    }
                }, "close-now-producer-" + p));
            }
            producers.forEach(Thread::start);
            await(go);
            someRan.await(1, TimeUnit.MINUTES);
            List<Runnable> returned = ctx.closeNow();
            synchronized (lock) {
                closeNowReturned[0] = true;
            }
            for (Thread t : producers) {
                t.join(TimeUnit.MINUTES.toMillis(1));
            }
            assertThat(ctx.awaitTermination(Duration.ofMinutes(1))).as("terminated, seed %d round %d", seed, round)
                    .isTrue();

            // At most the one callback the owner had claimed as closeNow() ran may start after it returned.
            assertThat(startedAfterCloseNow.get()).as("started after closeNow() returned, seed %d round %d", seed,
                    round).isLessThanOrEqualTo(1);
            Set<Runnable> returnedSet = Collections.newSetFromMap(new IdentityHashMap<>());
            returnedSet.addAll(returned);
            assertThat(returnedSet).as("closeNow() returned a post twice").hasSameSizeAs(returned);
            // Plain set lookups (AssertJ's contains would scan): a failure names the rule and the round.
            for (Runnable r : returned) {
                if (!accepted.contains(r) || ran.contains(r)) {
                    throw new AssertionError("closeNow() returned a post that was never accepted or that ran,"
                            + " seed " + seed + " round " + round);
                }
            }
            int postsRan = 0;
            for (Runnable r : accepted) {
                if (ran.contains(r)) {
                    postsRan++;
                } else if (!returnedSet.contains(r)) {
                    throw new AssertionError("an accepted post neither ran nor came back from closeNow(), seed "
                            + seed + " round " + round);
                }
            }
            assertThat(postsRan + returned.size()).isEqualTo(accepted.size());
            int futuresRan = 0;
            for (CompletableFuture<?> f : futures) {
                assertThat(f).as("a future left pending by closeNow()").isDone();
                if (!f.isCompletedExceptionally()) {
                    futuresRan++;
                } else if (!f.isCancelled()) {
                    // Not accepted: closed before its reservation.
                    assertThat(f).failsWithin(Duration.ZERO).withThrowableOfType(ExecutionException.class)
                            .withCauseInstanceOf(RejectedExecutionException.class);
                }
            }
            assertThat(started.get()).as("callbacks run, seed %d round %d", seed, round)
                    .isEqualTo(postsRan + futuresRan);
        }
    }

    @Test
    void aQueueBoundAdmitsExactlyItsLimitUnderRacingProducersAcrossChunks() throws Exception {
        System.out.println("ChunkedQueueStressTest seed " + seed);
        int rounds = (int) (30 * SCALE);
        for (int round = 0; round < rounds; round++) {
            int limit = 1 + new SplittableRandom(seed + round).nextInt(3_000);
            RendererSyncContext ctx = RendererSyncContext.builder().name("bound-" + round).maxQueueDepth(limit)
                    .build();
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch holding = new CountDownLatch(1);
            ctx.post(() -> {
                holding.countDown();
                awaitQuietly(release);
            });
            holding.await(1, TimeUnit.MINUTES);
            AtomicInteger admitted = new AtomicInteger();
            AtomicInteger ranCount = new AtomicInteger();
            CountDownLatch allRan = new CountDownLatch(limit);
            CyclicBarrier go = new CyclicBarrier(PRODUCERS);
            List<Thread> producers = new ArrayList<>();
            for (int p = 0; p < PRODUCERS; p++) {
                producers.add(new Thread(() -> {
                    await(go);
                    for (int i = 0; i < limit; i++) {
                        try {
                            ctx.post(() -> {
                                ranCount.incrementAndGet();
                                allRan.countDown();
                            });
                            admitted.incrementAndGet();
                        } catch (RejectedExecutionException full) {
                            // refused at the bound: counted by what was admitted
                        }
                    }
                }, "bound-producer-" + p));
            }
            producers.forEach(Thread::start);
            for (Thread t : producers) {
                t.join(TimeUnit.MINUTES.toMillis(1));
            }
            assertThat(admitted.get()).as("admitted with the drain held, limit %d", limit).isEqualTo(limit);
            assertThat(ctx.queueDepth()).isEqualTo(limit);
            release.countDown();
            assertThat(allRan.await(1, TimeUnit.MINUTES)).as("every admitted post ran").isTrue();
            // The depth counts a callback until the drain records its progress, just after the callback returns
            // ("briefly too many, never too few"): a post right after the last one counted down may still be full.
            // So may one after the depth read zero: the owner giving the context up clears its progress before
            // the CAS that gives back what it finished, and the bound reads the depth as it is documented.
            awaitDepthZero(ctx);
            admittedAgain(ctx); // room again
            assertThat(ranCount.get()).isEqualTo(limit);
            awaitDepthZero(ctx); // the last callback's progress is recorded just after it returns
        }
    }

    /** What the context's callbacks saw; touched only inside the context, so plain fields. */
    private static final class Ledger {
        final RendererSyncContext ctx;
        final int[] seen;
        int inside;
        volatile String violation;

        Ledger(RendererSyncContext ctx, int producers) {
            this.ctx = ctx;
            this.seen = new int[producers];
        }

        void record(int producer, int n) {
            if (++inside != 1) {
                violation = "two callbacks overlapped";
            }
            if (!ctx.checkAccess()) {
                violation = "a callback ran without checkAccess()";
            }
            if (seen[producer] != n) {
                violation = "producer " + producer + ": callback " + n + " ran when " + seen[producer] + " was due";
            }
            seen[producer] = n + 1;
            inside--;
        }
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(1, TimeUnit.MINUTES);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A post is admitted again within a minute: refusals as full while the owner gives up are retried. */
    private static void admittedAgain(RendererSyncContext ctx) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        for (;;) {
            try {
                ctx.invokeAsync(() -> { }).get(1, TimeUnit.MINUTES);
                return;
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof RejectedExecutionException) || System.nanoTime() > deadline) {
                    throw new AssertionError("no room again in " + ctx, e);
                }
            } catch (TimeoutException e) {
                throw new AssertionError(e);
            }
            Thread.sleep(1); // polling a condition with a deadline, not a guess at a duration
        }
    }

    private static void awaitDepthZero(RendererSyncContext ctx) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (ctx.queueDepth() != 0) {
            assertThat(System.nanoTime()).as("the depth of %s settles at zero", ctx).isLessThan(deadline);
            Thread.sleep(1); // polling a condition with a deadline, not a guess at a duration
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void join(CompletableFuture<?> f) {
        try {
            f.get(1, TimeUnit.MINUTES);
        } catch (ExecutionException | CancellationException e) {
            throw new AssertionError(e);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
