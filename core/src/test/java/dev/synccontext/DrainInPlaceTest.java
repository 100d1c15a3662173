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
 * A drain on the default executor that ends a batch with no other task waiting for the pool goes on in
 * place ({@link ElasticDrainHints#continueAfterBatch}) instead of giving the context up and resubmitting itself:
 * fairness must stay what the resubmission gave (a task waiting at the end of a batch runs before the
 * rest of the hot context's work), and the count must stay exact although the drain never gives the
 * context up (it gives back what it finished every {@link Drain#CARRY_LIMIT} callbacks).
 */
// Hang guard only (a stalled drain fails instead of stalling the build), never a speed bound.
@Timeout(value = 2, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DrainInPlaceTest {

    private static final int MAX_BATCH = 8;

    @Test
    void aTaskWaitingForTheOnlyPoolThreadRunsAfterTheHotContextsBatchNotAfterAllItsWork() throws Exception {
        ElasticExecutor pool = onePool("in-place-fair-");
        RendererSyncContext hot = RendererSyncContext.builder().name("hot").executor(pool).maxBatch(MAX_BATCH).build();
        // The task is queued on the pool's one thread, which hot's drain holds: it waits for the batch's end.
        assertThat(HotContext.runsBeforeTheOtherTask(hot, pool, Duration.ofSeconds(30)))
                .as("hot's callbacks run before the waiting task (it was queued during the first batch)")
                .isLessThanOrEqualTo(MAX_BATCH);
    }

    @Test
    void aDrainGoingOnInPlacePastTheCarryLimitKeepsTheCountExactAndTheContextExclusive() throws Exception {
        ElasticExecutor pool = onePool("in-place-count-");
        RendererSyncContext ctx = RendererSyncContext.builder().name("carried").executor(pool).maxBatch(64).build();
        int steps = Drain.CARRY_LIMIT + 3 * 64 + 5;
        AtomicInteger inside = new AtomicInteger();
        AtomicReference<String> violation = new AtomicReference<>();
        int[] ran = {0}; // written inside ctx only
        CompletableFuture<Void> done = new CompletableFuture<>();
        Runnable[] step = new Runnable[1];
        step[0] = () -> {
            if (inside.incrementAndGet() != 1) {
                violation.compareAndSet(null, "two callbacks ran at once, at step " + ran[0]);
            }
            // The caller's callbacks queue too, so only a depth below zero or far above them is wrong.
            int depth = ctx.queueDepth();
            if (depth < 0 || depth > 2) {
                violation.compareAndSet(null, "queueDepth " + depth + " at step " + ran[0]);
            }
            if (++ran[0] < steps) {
                ctx.post(step[0]);
            } else {
                done.complete(null);
            }
            inside.decrementAndGet();
        };
        // A caller from outside all along: if the drain ever left the count at zero while it owns the
        // context, this caller would claim it as idle and run beside the drain's callbacks.
        CountDownLatch callerStarted = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        Thread caller = new Thread(() -> {
            callerStarted.countDown();
            while (!done.isDone()) {
                Exclusive.invokeAndCheckAlone(ctx, inside, violation);
                calls.incrementAndGet();
            }
        }, "caller");
        caller.start();
        callerStarted.await();
        ctx.post(step[0]);

        done.get(90, TimeUnit.SECONDS);
        caller.join();
        assertThat(violation.get()).as("violation").isNull();
        assertThat(ran[0]).isEqualTo(steps);
        // Termination comes only once the count is back at exactly zero: a drain that gave back one
        // too few would leave it above zero for good (one too many shows as two callbacks at once above).
        ctx.close();
        assertThat(ctx.awaitTermination(Duration.ofSeconds(30))).as("terminated: %s", pool).isTrue();
        assertThat(ctx.queueDepth()).as("queueDepth once terminated").isZero();
        assertThat(ctx.closeNow()).as("nothing pending").isEmpty();
        System.out.println("[in-place] " + steps + " steps, " + calls.get() + " calls beside them");
    }

    /** A pool of one thread at most (no compensation thread either), retiring after 1 s idle. */
    private static ElasticExecutor onePool(String namePrefix) {
        return new ElasticExecutor(namePrefix, 1, 1, TimeUnit.SECONDS.toNanos(1), TimeUnit.MILLISECONDS.toNanos(2),
                ElasticExecutor.DEFAULT_SPIN_NANOS);
    }
}
