package dev.synccontext.stress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.CallbackOutcome;
import dev.synccontext.CallbackPath;
import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Fault injection at the executor: it rejects, throws, or stalls. In every case each pending caller
 * learns what happened (a failed future, an exception from {@code send}, the handler for a post),
 * the counters say so, and the context goes on serving once the executor works again.
 */
class ExecutorFaultTest extends FaultInjectionTest {

    /** An executor that forwards to the pool while {@code working}, and otherwise throws {@code fault}. */
    private Executor faulty(AtomicBoolean working, AtomicReference<Throwable> fault) {
        return task -> {
            if (!working.get()) {
                Throwable t = fault.get();
                if (t instanceof RuntimeException r) {
                    throw r;
                }
                throw (Error) t;
            }
            pool.execute(task);
        };
    }

    @Test
    void rejectingExecutorFailsEveryQueuedCallerAndTheContextRecovers() throws Exception {
        checkRefusingExecutor(new RejectedExecutionException("pool saturated (injected)"));
    }

    @Test
    void throwingExecutorFailsEveryQueuedCallerAndTheContextRecovers() throws Exception {
        checkRefusingExecutor(new IllegalStateException("executor bug (injected)"));
    }

    @Test
    void executorThrowingAnErrorFailsEveryQueuedCallerAndTheContextRecovers() throws Exception {
        checkRefusingExecutor(new OutOfMemoryError("unable to create native thread (injected)"));
    }

    private void checkRefusingExecutor(Throwable fault) throws Exception {
        AtomicBoolean working = new AtomicBoolean(false);
        CountingObserver observer = new CountingObserver();
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        RendererSyncContext ctx = RendererSyncContext.builder()
                .name("refused")
                .executor(faulty(working, new AtomicReference<>(fault)))
                .observer(observer)
                .unhandledExceptionHandler((c, failure) -> handled.add(failure))
                .build();

        // An idle post schedules a drain at once: refused, so the post goes to the handler.
        AtomicInteger postsRun = new AtomicInteger();
        ctx.post(postsRun::incrementAndGet);
        assertThat(handled).singleElement().satisfies(failure -> {
            assertThat(failure).isInstanceOf(RejectedExecutionException.class).hasMessageContaining("'refused'");
            assertThat(failure.getCause()).isSameAs(fault);
        });

        // Work that queues behind an inline callback is refused when that callback releases.
        Hold hold = new Hold();
        Thread owner = startOwnerHolding(ctx, hold);
        CompletableFuture<Void> queued = ctx.invokeAsync(() -> { });
        ctx.post(postsRun::incrementAndGet);
        AtomicReference<Throwable> sendFailure = new AtomicReference<>();
        CountDownLatch senderQueued = new CountDownLatch(1);
        Thread sender = threads.start("sender", () -> {
            senderQueued.countDown();
            try {
                ctx.send(() -> postsRun.addAndGet(1000));
            } catch (Throwable t) {
                sendFailure.set(t);
            }
        });
        await(senderQueued);
        awaitQueueDepth(ctx, 3); // the sender has reserved its place once the depth says so
        hold.release();
        owner.join(HANG_GUARD.toMillis());
        sender.join(HANG_GUARD.toMillis());

        assertThat(queued).isCompletedExceptionally();
        assertThatThrownBy(queued::join).isInstanceOf(CompletionException.class)
                .cause().isInstanceOf(RejectedExecutionException.class).hasMessageContaining("'refused'");
        assertThat(sendFailure.get()).isInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining("'refused'");
        assertThat(handled).hasSize(2);
        assertThat(postsRun).as("no refused callback may run").hasValue(0);
        assertThat(ctx.unhandledExceptionCount()).isEqualTo(2);
        assertThat(observer.count(CallbackPath.QUEUED, CallbackOutcome.REJECTED)
                + observer.count(CallbackPath.SEND, CallbackOutcome.REJECTED)).as(observer.toString()).isEqualTo(4);
        assertThat(ctx.queueDepth()).isZero();
        assertThat(ctx.isClosed()).isFalse();

        // The executor works again: the same context serves inline, queued, posted and sent work.
        working.set(true);
        assertThat(ctx.invokeAsync(() -> 7).join()).isEqualTo(7);
        CountDownLatch posted = new CountDownLatch(1);
        ctx.post(posted::countDown);
        await(posted);
        ctx.send(postsRun::incrementAndGet);
        ctx.close();
        assertThat(ctx.awaitTermination(HANG_GUARD)).isTrue();
        assertThat(postsRun).hasValue(1);
    }

    /**
     * A handler that reacts to a refused drain by force-closing the context (the executor is gone,
     * so shut down) is called by the thread that is failing the queue and so owns the context. It
     * must count as inside: otherwise closeNow() waits for the owner, that is for itself, forever.
     */
    @Test
    void handlerThatForceClosesOnARefusedDrainDoesNotDeadlock() throws Exception {
        Executor dead = task -> {
            throw new RejectedExecutionException("executor shut down (injected)");
        };
        AtomicReference<List<Runnable>> returnedByHandler = new AtomicReference<>();
        AtomicReference<Boolean> handlerInside = new AtomicReference<>();
        RendererSyncContext[] self = new RendererSyncContext[1];
        RendererSyncContext ctx = RendererSyncContext.builder().name("dead-executor").executor(dead)
                .unhandledExceptionHandler((c, failure) -> {
                    if (returnedByHandler.get() == null) {
                        handlerInside.set(c.checkAccess());
                        returnedByHandler.set(c.closeNow());
                    }
                }).build();
        self[0] = ctx;
        Hold hold = new Hold();
        Thread owner = startOwnerHolding(ctx, hold);
        Runnable first = () -> { };
        Runnable second = () -> { };
        ctx.post(first);
        CompletableFuture<Void> queued = ctx.invokeAsync(() -> { });
        ctx.post(second);
        hold.release(); // the owner releases, the executor refuses, the owner fails the queue
        owner.join(HANG_GUARD.toMillis());
        assertThat(owner.isAlive()).as("the releasing caller deadlocked in the handler's closeNow(): %s",
                stackOf(owner)).isFalse();
        assertThat(handlerInside.get()).as("the handler runs inside the context").isTrue();
        assertThat(returnedByHandler.get()).as("closeNow() from the handler returns the other pending post")
                .containsExactly(second);
        assertThat(queued).isCompletedExceptionally();
        assertThat(ctx.awaitTermination(HANG_GUARD)).isTrue();
        assertThat(ctx.queueDepth()).isZero();
    }

    private static String stackOf(Thread t) {
        StringBuilder b = new StringBuilder();
        for (StackTraceElement e : t.getStackTrace()) {
            b.append("\n\tat ").append(e);
        }
        return b.toString();
    }

    @Test
    void refusedResubmissionAfterAFullBatchKeepsDrainingOnTheSameThread() throws Exception {
        AtomicInteger accepted = new AtomicInteger();
        Executor firstOnly = task -> {
            if (accepted.getAndIncrement() > 0) {
                throw new RejectedExecutionException("only one drain accepted (injected)");
            }
            pool.execute(task);
        };
        RendererSyncContext ctx = RendererSyncContext.builder().name("resubmit-refused").executor(firstOnly)
                .maxBatch(2).build();
        CountDownLatch gate = new CountDownLatch(1);
        List<Integer> order = new ArrayList<>();
        ctx.post(() -> await(gate));
        List<CompletableFuture<Void>> futures = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            int n = i;
            futures.add(ctx.invokeAsync((Runnable) () -> order.add(n)));
        }
        gate.countDown();
        CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(HANG_GUARD.toMillis(),
                TimeUnit.MILLISECONDS);
        assertThat(order).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        assertThat(accepted.get()).as("the drain tried to resubmit after each full batch").isGreaterThan(1);
        ctx.close();
        assertThat(ctx.awaitTermination(HANG_GUARD)).isTrue();
    }

    @Test
    void stalledExecutorLeavesNoCallerStuckWhenClosedNow() throws Exception {
        ConcurrentLinkedQueue<Runnable> stalled = new ConcurrentLinkedQueue<>();
        RendererSyncContext ctx = RendererSyncContext.builder().name("stalled").executor(stalled::add).build();
        Runnable post = () -> {
            throw new AssertionError("a post of a closed context ran");
        };
        ctx.post(post);
        CompletableFuture<Void> queued = ctx.invokeAsync(() -> {
            throw new AssertionError("a cancelled callback ran");
        });
        AtomicReference<Throwable> sendFailure = new AtomicReference<>();
        Thread sender = threads.start("stalled-sender", () -> {
            try {
                ctx.send(() -> {
                    throw new AssertionError("an aborted send ran");
                });
            } catch (Throwable t) {
                sendFailure.set(t);
            }
        });
        awaitQueueDepth(ctx, 3);
        assertThat(stalled).as("one drain scheduled, never started").hasSize(1);

        List<Runnable> returned = ctx.closeNow();

        assertThat(returned).containsExactly(post);
        assertThat(queued).isCancelled();
        sender.join(HANG_GUARD.toMillis());
        assertThat(sendFailure.get()).isInstanceOf(RejectedExecutionException.class).hasMessageContaining("'stalled'");
        assertThat(ctx.awaitTermination(Duration.ZERO)).isTrue();
        // The stalled drain finally runs: it finds the queue taken over and does nothing.
        stalled.poll().run();
        assertThat(ctx.queueDepth()).isZero();
    }
}
