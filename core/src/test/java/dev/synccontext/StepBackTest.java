package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/**
 * A drain on the default executor that catches up with a producer steps back ({@code SyncContext},
 * "Stepping back from a producer"). Stepping back only delays the drain, so every rule of the contract
 * must hold exactly as before while it happens: here one thread streams posts into a context (fast,
 * so that the drain keeps catching it between a reservation and a link) and another calls
 * {@code invokeAsync(...).join()} in between. Only a race reaches the step back, so the stream goes on
 * until the pool has counted {@value #STEP_BACKS_WANTED} of them, or for at most {@value #MAX_ROUNDS}
 * rounds; a run that saw none is reported as skipped, not passed.
 */
// Hang guard only (a stalled drain fails instead of stalling the build), never a speed bound.
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StepBackTest {

    private static final int POSTS_PER_ROUND = 10_000;
    private static final int MAX_ROUNDS = 400;
    private static final int STEP_BACKS_WANTED = 50;

    @RepeatedTest(5)
    void postsFromAStreamingProducerRunOnceEachInOrderOneAtATime() throws Exception {
        ElasticExecutor pool = new ElasticExecutor("step-back-test-", 2, 16, TimeUnit.SECONDS.toNanos(1),
                TimeUnit.MILLISECONDS.toNanos(2), ElasticExecutor.DEFAULT_SPIN_NANOS);
        RendererSyncContext ctx = RendererSyncContext.builder().name("streamed").executor(pool).build();
        AtomicInteger inside = new AtomicInteger();
        AtomicReference<String> violation = new AtomicReference<>();
        int[] ran = new int[1]; // written inside the context only
        // Made up front: a producer that allocates and captures per post is too slow for the drain to
        // catch it between a reservation and a link.
        Runnable[] steps = new Runnable[POSTS_PER_ROUND];
        for (int i = 0; i < POSTS_PER_ROUND; i++) {
            int seq = i;
            steps[i] = () -> {
                if (inside.incrementAndGet() != 1) {
                    violation.compareAndSet(null, "two callbacks ran at once");
                }
                if (ran[0]++ % POSTS_PER_ROUND != seq) {
                    violation.compareAndSet(null, "post " + seq + " ran as number " + (ran[0] - 1));
                }
                inside.decrementAndGet();
            };
        }
        CountDownLatch go = new CountDownLatch(1);
        AtomicInteger rounds = new AtomicInteger();
        Thread poster = new Thread(() -> {
            Occupier.awaitUninterruptibly(go);
            while (rounds.get() < MAX_ROUNDS && pool.stepBackCount() < STEP_BACKS_WANTED) {
                for (Runnable step : steps) {
                    ctx.post(step);
                }
                rounds.incrementAndGet();
                // Let the drain finish the round, so that the next one starts with the drain behind the
                // producer and catching up (an endless stream would leave it behind for good).
                CompletableFuture<Void> roundDone = new CompletableFuture<>();
                ctx.post(() -> roundDone.complete(null));
                roundDone.join();
            }
        }, "poster");
        AtomicInteger calls = new AtomicInteger();
        Thread caller = new Thread(() -> {
            Occupier.awaitUninterruptibly(go);
            while (poster.isAlive()) {
                ctx.invokeAsync(() -> {
                    if (inside.incrementAndGet() != 1) {
                        violation.compareAndSet(null, "an invokeAsync callback ran beside another");
                    }
                    inside.decrementAndGet();
                }).join();
                calls.incrementAndGet();
            }
        }, "caller");
        poster.start();
        caller.start();
        go.countDown();
        poster.join();
        caller.join();
        int posted = rounds.get() * POSTS_PER_ROUND;
        // Queued behind every post (FIFO), so it reads the count once they have all run.
        int counted = ctx.invokeAsync(() -> ran[0]).get(30, TimeUnit.SECONDS);
        ctx.close();
        assertThat(ctx.awaitTermination(Duration.ofSeconds(30))).as("terminated: %s", pool).isTrue();
        assertThat(violation.get()).as("violation").isNull();
        assertThat(counted).as("posts run, of %d posted", posted).isEqualTo(posted);
        System.out.println("[step-back] " + pool.stepBackCount() + " step backs over " + posted + " posts and "
                + calls.get() + " calls");
        assumeTrue(pool.stepBackCount() > 0, "no drain caught up with the producer in this run");
    }
}
