package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.testing.PooledTest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Rule 8: close rejects new work, lets queued work finish; closeNow aborts and hands posts back at once,
 * never waiting for a callback that runs on another thread.
 */
class CloseTest extends PooledTest {

    @Test
    void closeRejectsNewWorkWithAMessageNamingTheContext() {
        RendererSyncContext ctx = RendererSyncContext.builder().name("gone").executor(pool).build();
        ctx.close();

        assertThat(ctx.isClosed()).isTrue();
        assertThat(ctx.invokeAsync(() -> { })).isCompletedExceptionally();
        assertThatThrownBy(() -> ctx.invokeAsync(() -> { }).join()).hasCauseInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining("'gone'").hasMessageContaining("closed");
        assertThatThrownBy(() -> ctx.post(() -> { })).isInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining("'gone'");
        assertThatThrownBy(() -> ctx.send(() -> { })).isInstanceOf(RejectedExecutionException.class);
    }

    @Test
    void closeReturnsAtOnceQueuedWorkStillRunsAndAwaitTerminationWaitsForIt() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        List<String> ran = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> queued;
        try (Occupier occupier = Occupier.occupy(ctx)) {
            queued = ctx.invokeAsync(() -> { ran.add("queued"); });
            ctx.post(() -> ran.add("posted"));
            ctx.close();
            assertThat(ctx.awaitTermination(Duration.ofMillis(50))).as("terminated while busy").isFalse();
        }
        assertThat(ctx.awaitTermination(Duration.ofSeconds(10))).isTrue();
        assertThat(ran).containsExactly("queued", "posted");
        assertThat(queued).isCompleted();
    }

    @Test
    void nestedCallsFromACallbackStillRunningAfterCloseKeepWorking() {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        AtomicReference<String> nested = new AtomicReference<>();
        ctx.invokeAsync(() -> {
            ctx.close();
            nested.set(ctx.invokeAsync(() -> "nested after close").join());
        });
        assertThat(nested.get()).isEqualTo("nested after close");
    }

    @Test
    void closeNowCancelsPendingFuturesAndReturnsThePostedRunnablesThemselves() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        Runnable postA = () -> { };
        Runnable postB = () -> { };
        CompletableFuture<Void> pending;
        List<Runnable> returned;
        try (Occupier occupier = Occupier.occupy(ctx)) {
            ctx.post(postA);
            pending = ctx.invokeAsync(() -> { });
            ctx.post(postB);
            returned = ctx.closeNow(); // the occupier's callback still runs: closeNow does not wait for it
            assertThat(pending.isCancelled()).as("pending future cancelled when closeNow returns").isTrue();
            assertThat(ctx.awaitTermination(Duration.ZERO)).as("terminated while a callback runs").isFalse();
        }
        assertThat(returned).containsExactly(postA, postB);
        assertThat(ctx.awaitTermination(Duration.ofSeconds(10))).isTrue();
    }

    /**
     * The rule: a drain is held inside a callback with more work queued behind it in the same
     * batch; closeNow() returns within 100 ms with the pending posts, the pending futures cancelled, and
     * awaitTermination waits for the held callback. Nothing queued runs after closeNow() returned,
     * not even the rest of the drain's batch.
     */
    @Test
    void closeNowReturnsAtOnceWhileADrainIsHeldAndAwaitTerminationWaitsForTheHeldCallback() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.builder().name("held").executor(pool).build();
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger ranAfter = new AtomicInteger();
        ctx.post(() -> {
            inside.countDown();
            Occupier.awaitUninterruptibly(release);
        });
        Occupier.awaitUninterruptibly(inside); // the drain on the pool runs the held callback now
        PendingWork pending = PendingWork.queue(ctx, 10, ranAfter);
        // Timed on a thread of its own, so a closeNow that waits fails here instead of hanging the build.
        CompletableFuture<Long> closeNanos = new CompletableFuture<>();
        List<Runnable> returned = new CopyOnWriteArrayList<>();
        Thread closer = new Thread(() -> {
            long start = System.nanoTime();
            returned.addAll(ctx.closeNow());
            closeNanos.complete(System.nanoTime() - start);
        }, "closer");
        closer.start();
        try {
            long nanos = closeNanos.get(10, TimeUnit.SECONDS);
            assertThat(Duration.ofNanos(nanos)).as("closeNow() took %s ms with a callback held", nanos / 1e6)
                    .isLessThan(Duration.ofMillis(100));
            assertThat(returned).containsExactlyElementsOf(pending.posts());
            assertThat(pending.futures()).allSatisfy(f -> assertThat(f).isCancelled());
            assertThat(ctx.awaitTermination(Duration.ofMillis(20))).as("awaitTermination waits for the held callback")
                    .isFalse();
        } finally {
            release.countDown();
        }
        assertThat(ctx.awaitTermination(Duration.ofSeconds(10))).isTrue();
        assertThat(ranAfter).as("callbacks that started after closeNow() returned").hasValue(0);
    }

    @Test
    void closeNowFromInsideACallbackAbortsTheRestAtOnce() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        Runnable post = () -> { };
        AtomicReference<List<Runnable>> returned = new AtomicReference<>();
        CompletableFuture<Void> pending;
        try (Occupier occupier = Occupier.occupy(ctx)) {
            ctx.invokeAsync(() -> returned.set(ctx.closeNow()));
            pending = ctx.invokeAsync(() -> { });
            ctx.post(post);
        }
        assertThat(ctx.awaitTermination(Duration.ofSeconds(10))).isTrue();
        assertThat(returned.get()).containsExactly(post);
        assertThat(pending.isCancelled()).isTrue();
    }

    @Test
    void closeNowTakesTheQueueFromADrainTheExecutorNeverStarts() throws Exception {
        ManualExecutor stalled = new ManualExecutor();
        RendererSyncContext ctx = RendererSyncContext.create(stalled);
        Runnable post = () -> { };
        ctx.post(post);
        CompletableFuture<Void> pending = ctx.invokeAsync(() -> { });

        assertThat(ctx.closeNow()).containsExactly(post);

        assertThat(pending.isCancelled()).isTrue();
        assertThat(ctx.awaitTermination(Duration.ZERO)).isTrue();
        stalled.runUntilIdle(); // the stale drain starts late and must do nothing
        assertThat(ctx.queueDepth()).isZero();
    }

    @Test
    void closeNowReenteredFromCodeTheAbortRunsReturnsAtOnceInsteadOfWaitingForItself() {
        ManualExecutor stalled = new ManualExecutor();
        List<List<Runnable>> reentered = new CopyOnWriteArrayList<>();
        RendererSyncContext ctx = RendererSyncContext.builder().executor(stalled)
                .observer(new SyncContextObserver() {
                    @Override
                    public void callbackFinished(RendererSyncContext context, CallbackPath path, CallbackOutcome outcome) {
                        if (outcome == CallbackOutcome.CANCELLED) {
                            reentered.add(context.closeNow());
                        }
                    }
                }).build();
        Runnable postA = () -> { };
        Runnable postB = () -> { };
        ctx.post(postA);
        CompletableFuture<Void> pending = ctx.invokeAsync(() -> { });
        pending.whenComplete((v, e) -> reentered.add(ctx.closeNow())); // a dependent of a cancelled future
        ctx.post(postB);

        List<Runnable> returned = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(
                Duration.ofSeconds(10), ctx::closeNow, "closeNow deadlocked on its own abort");

        assertThat(returned).containsExactly(postA, postB);
        assertThat(pending.isCancelled()).isTrue();
        assertThat(reentered).hasSize(4).allSatisfy(inner -> assertThat(inner).isEmpty());
    }

    @Test
    void closeNowFailsAWaitingSenderWithAClearException() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.builder().name("s").executor(pool).build();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread sender;
        try (Occupier occupier = Occupier.occupy(ctx)) {
            sender = new Thread(() -> {
                try {
                    ctx.send(() -> { });
                } catch (Throwable t) {
                    thrown.set(t);
                }
            });
            sender.start();
            PostAndSendTest.awaitQueueDepth(ctx, 1);
            CompletableFuture.runAsync(ctx::closeNow, pool);
            while (!ctx.isClosed()) {
                Thread.onSpinWait();
            }
        }
        sender.join(10_000);
        assertThat(thrown.get()).isInstanceOf(RejectedExecutionException.class).hasMessageContaining("'s'")
                .hasMessageContaining("closeNow");
    }

    @Test
    void awaitTerminationFromInsideTheContextFailsFastInsteadOfWaitingForItself() {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        CompletableFuture<Void> result = ctx.invokeAsync(() -> {
            ctx.close();
            try {
                ctx.awaitTermination(Duration.ofSeconds(5));
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
        assertThatThrownBy(result::join).hasCauseInstanceOf(IllegalStateException.class)
                .hasMessageContaining("awaitTermination");
    }

    @Test
    void awaitTerminationOnAnOpenContextTimesOut() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        assertThat(ctx.awaitTermination(Duration.ofMillis(20))).isFalse();
        ctx.close();
        assertThat(ctx.awaitTermination(Duration.ofMillis(20))).isTrue();
    }
}
