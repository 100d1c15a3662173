package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A drain on the default executor that catches up with a producer steps back ({@code Drain},
 * "Stepping back from a producer"): {@link ElasticExecutor#stepBack} spins a little, only while no other
 * task waits for the pool. Stepping back only delays the drain, so every rule of the contract must hold
 * exactly as before while it happens.
 *
 * <p>The pool's side of the rule is driven deterministically (an idle pool steps back and counts it; a
 * pool with a task queued returns at once). The drain's side, reaching a producer between its reservation
 * and its slot write, has no seam a test can hold (the window is a few instructions inside
 * {@code CallbackQueue.enqueue}), so the streaming test below provokes it by racing and asserts the
 * contract on every run, whether or not a step back happened in it; it prints how many did.
 */
// Hang guard only (a stalled drain fails instead of stalling the build), never a speed bound.
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StepBackTest {

    private static final int POSTS_PER_ROUND = 10_000;
    private static final int MAX_ROUNDS = 400;
    private static final int STEP_BACKS_WANTED = 50;

    @Test
    void anIdlePoolStepsBackAndCountsIt() {
        ElasticExecutor pool = pool("step-back-idle-", 1);

        assertThat(pool.stepBack()).as("stepped back with nothing queued: %s", pool).isTrue();
        assertThat(pool.stepBackCount()).isEqualTo(1);
    }

    @Test
    void aPoolWithATaskQueuedDoesNotStepBack() throws Exception {
        StepBackRule.assertStepsBackOnlyWhileNoOtherTaskIsQueued(pool("step-back-busy-", 1));
    }

    /** A pool of at most {@code maxThreads} threads that retire after 1 s idle. */
    private static ElasticExecutor pool(String namePrefix, int maxThreads) {
        return new ElasticExecutor(namePrefix, 1, maxThreads, TimeUnit.SECONDS.toNanos(1),
                TimeUnit.MILLISECONDS.toNanos(2), ElasticExecutor.DEFAULT_SPIN_NANOS);
    }

    @Test
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
                Exclusive.invokeAndCheckAlone(ctx, inside, violation);
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
    }
}
