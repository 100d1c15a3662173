package dev.synccontext.stress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.BlockedCallback;
import dev.synccontext.CallbackOutcome;
import dev.synccontext.CallbackPath;
import dev.synccontext.PendingWork;
import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Fault injection in what the context runs: callbacks that throw ({@code RuntimeException},
 * {@code Error}, a real {@code StackOverflowError}) or block past the watchdog threshold, senders
 * interrupted while they wait, handlers that throw, and {@code closeNow()} in the middle of a drain.
 * After each fault the context keeps serving (or fails every pending caller with a clear
 * exception), the counters report it, and no thread is left stuck.
 */
class CallbackFaultTest extends FaultInjectionTest {

    @Test
    void runtimeExceptionOnEveryPathIsReportedAndTheContextKeepsServing() throws Exception {
        checkThrowingCallbacks(() -> new IllegalArgumentException("injected runtime failure"));
    }

    @Test
    void errorOnEveryPathIsReportedAndTheContextKeepsServing() throws Exception {
        checkThrowingCallbacks(() -> new AssertionError("injected error"));
    }

    @Test
    void realStackOverflowOnEveryPathIsReportedAndTheContextKeepsServing() throws Exception {
        checkThrowingCallbacks(() -> {
            try {
                recurse(0);
            } catch (StackOverflowError overflow) {
                return overflow;
            }
            throw new AssertionError("no stack overflow");
        });
    }

    private static int recurse(int depth) {
        return recurse(depth + 1) + 1;
    }

    /**
     * The same failure thrown inline, nested, queued, posted and sent; counted by the observer,
     * the handler and {@code unhandledExceptionCount()}; the context serves normally afterwards.
     */
    private void checkThrowingCallbacks(Supplier<Throwable> failures) throws Exception {
        CountingObserver observer = new CountingObserver();
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        RendererSyncContext ctx = RendererSyncContext.builder().name("throwing").executor(pool)
                .observer(observer).unhandledExceptionHandler((c, f) -> handled.add(f)).build();
        Runnable thrower = () -> sneakyThrow(failures.get());

        CompletableFuture<Void> inline = ctx.invokeAsync(thrower);
        assertFailedWith(inline, failures);
        assertThat(ctx.checkAccess()).isFalse();

        AtomicReference<CompletableFuture<Void>> nested = new AtomicReference<>();
        ctx.invokeAsync(() -> nested.set(ctx.invokeAsync(thrower))).join();
        assertFailedWith(nested.get(), failures);

        Hold hold = new Hold();
        Thread owner = startOwnerHolding(ctx, hold);
        CompletableFuture<Void> queued = ctx.invokeAsync(thrower);
        ctx.post(thrower);
        hold.release();
        owner.join(HANG_GUARD.toMillis());
        queued.handle((v, f) -> null).get(HANG_GUARD.toMillis(), TimeUnit.MILLISECONDS);
        assertFailedWith(queued, failures);
        CountDownLatch afterPost = new CountDownLatch(1);
        ctx.post(afterPost::countDown);
        await(afterPost);
        assertThat(handled).hasSize(1);
        assertThat(handled.get(0).getClass()).isEqualTo(failures.get().getClass());

        assertThatThrownBy(() -> ctx.send(thrower)).isInstanceOf(failures.get().getClass());
        assertThat(ctx.checkAccess()).isFalse();
        assertThat(RendererSyncContext.current()).isEmpty();

        assertThat(ctx.invokeAsync(() -> 42).get(HANG_GUARD.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(42);
        assertThat(ctx.unhandledExceptionCount()).isEqualTo(1);
        assertThat(observer.unhandled).hasSize(1);
        assertThat(observer.count(CallbackPath.INLINE, CallbackOutcome.FAILURE)).as(observer.toString()).isEqualTo(1);
        assertThat(observer.count(CallbackPath.NESTED, CallbackOutcome.FAILURE)).as(observer.toString()).isEqualTo(1);
        assertThat(observer.count(CallbackPath.QUEUED, CallbackOutcome.FAILURE)).as(observer.toString()).isEqualTo(2);
        assertThat(observer.count(CallbackPath.SEND, CallbackOutcome.FAILURE)).as(observer.toString()).isEqualTo(1);
        ctx.close();
        assertThat(ctx.awaitTermination(HANG_GUARD)).isTrue();
    }

    private static void assertFailedWith(CompletableFuture<?> f, Supplier<Throwable> failures) throws Exception {
        assertThat(f).isCompletedExceptionally();
        Class<?> expected = failures.get().getClass();
        assertThatThrownBy(() -> f.get(HANG_GUARD.toMillis(), TimeUnit.MILLISECONDS))
                .cause().isInstanceOf(expected);
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void sneakyThrow(Throwable t) throws T {
        throw (T) t;
    }

    @Test
    void callbackBlockedPastTheThresholdIsReportedOnceAndTheQueueResumes() throws Exception {
        CountingObserver observer = new CountingObserver();
        RendererSyncContext ctx = RendererSyncContext.builder().name("blocked").executor(pool)
                .blockedThreshold(Duration.ofMillis(100)).observer(observer).build();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch inside = new CountDownLatch(1);
        Thread owner = threads.start("blocked-owner", () -> ctx.invokeAsync(() -> {
            inside.countDown();
            await(observer.firstBlocked); // blocked until the watchdog has reported it
            List<BlockedCallback> now = RendererSyncContext.blockedCallbacks();
            assertThat(now).as("blockedCallbacks() while blocked")
                    .anySatisfy(b -> assertThat(b.context()).isSameAs(ctx));
            await(release);
        }).join());
        await(inside);
        CompletableFuture<Integer> behind = ctx.invokeAsync(() -> 1);
        await(observer.firstBlocked);
        BlockedCallback report = observer.blocked.get(0);
        assertThat(report.contextName()).isEqualTo("blocked");
        assertThat(report.threadName()).isEqualTo("blocked-owner");
        assertThat(report.runningFor()).isGreaterThanOrEqualTo(Duration.ofMillis(100));
        assertThat(report.stack()).anySatisfy(e -> assertThat(e.getClassName()).contains("CallbackFaultTest"));
        assertThat(behind).as("work queued behind a blocked callback waits").isNotDone();
        release.countDown();
        assertThat(behind.get(HANG_GUARD.toMillis(), TimeUnit.MILLISECONDS)).isEqualTo(1);
        owner.join(HANG_GUARD.toMillis());
        assertThat(observer.blocked).as("reported once").hasSize(1);
        assertThat(ctx.blockedCallbackCount()).isEqualTo(1);
        assertThat(RendererSyncContext.blockedCallbacks()).noneSatisfy(b -> assertThat(b.context()).isSameAs(ctx));
        ctx.close();
        assertThat(ctx.awaitTermination(HANG_GUARD)).isTrue();
    }

    @Test
    void senderInterruptedWhileWaitingWithdrawsAndTheContextKeepsServing() throws Exception {
        CountingObserver observer = new CountingObserver();
        RendererSyncContext ctx = RendererSyncContext.builder().name("interrupted").executor(pool)
                .observer(observer).build();
        Hold hold = new Hold();
        Thread owner = startOwnerHolding(ctx, hold);
        AtomicInteger sentRuns = new AtomicInteger();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicReference<Boolean> interruptKept = new AtomicReference<>();
        Thread sender = threads.start("sender", () -> {
            try {
                ctx.send(sentRuns::incrementAndGet);
            } catch (Throwable t) {
                thrown.set(t);
            }
            interruptKept.set(Thread.currentThread().isInterrupted());
        });
        awaitQueueDepth(ctx, 1);
        CompletableFuture<Void> behind = ctx.invokeAsync(() -> { });
        sender.interrupt();
        sender.join(HANG_GUARD.toMillis());
        assertThat(thrown.get()).isInstanceOf(CancellationException.class).hasMessageContaining("'interrupted'");
        assertThat(interruptKept.get()).as("interrupt status kept").isTrue();
        hold.release();
        behind.get(HANG_GUARD.toMillis(), TimeUnit.MILLISECONDS);
        owner.join(HANG_GUARD.toMillis());
        assertThat(sentRuns).as("a withdrawn send never runs").hasValue(0);
        assertThat(observer.count(CallbackPath.SEND, CallbackOutcome.CANCELLED)).as(observer.toString()).isEqualTo(1);
        assertThat(ctx.queueDepth()).isZero();

        ctx.close();
        assertThat(ctx.awaitTermination(HANG_GUARD)).isTrue();

        // An interrupted thread that finds a context idle still runs its send, inline, and keeps the flag.
        RendererSyncContext idle = RendererSyncContext.builder().name("idle").executor(pool).build();
        Thread.currentThread().interrupt();
        try {
            idle.send(sentRuns::incrementAndGet);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(sentRuns).hasValue(1);
    }

    @Test
    void throwingHandlerNeverStallsTheQueue() throws Exception {
        AtomicInteger handlerCalls = new AtomicInteger();
        RendererSyncContext ctx = RendererSyncContext.builder().name("bad-handler").executor(pool)
                .unhandledExceptionHandler((c, f) -> {
                    handlerCalls.incrementAndGet();
                    throw new IllegalStateException("the handler itself fails (injected)");
                }).build();
        List<Integer> ran = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 100; i++) {
            int n = i;
            ctx.post(() -> {
                ran.add(n);
                if (n % 2 == 0) {
                    throw new IllegalArgumentException("post " + n + " fails (injected)");
                }
            });
        }
        CompletableFuture<Void> last = ctx.invokeAsync(() -> { });
        last.get(HANG_GUARD.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(ran).hasSize(100).isSorted();
        assertThat(handlerCalls).hasValue(50);
        assertThat(ctx.unhandledExceptionCount()).isEqualTo(50);
        ctx.close();
        assertThat(ctx.awaitTermination(HANG_GUARD)).isTrue();
    }

    @Test
    void closeNowDuringADrainAbortsThePendingWithoutWaitingForTheRunningCallback() throws Exception {
        CountingObserver observer = new CountingObserver();
        RendererSyncContext ctx = RendererSyncContext.builder().name("close-now").executor(pool)
                .observer(observer).build();
        Hold hold = new Hold();
        AtomicInteger ranAfter = new AtomicInteger();
        ctx.post(hold);
        hold.awaitInside(); // a drain on the pool runs the first post now
        PendingWork pending = PendingWork.queue(ctx, 20, ranAfter);
        AtomicReference<Throwable> sendFailure = new AtomicReference<>();
        Thread sender = threads.start("sender", () -> {
            try {
                ctx.send(ranAfter::incrementAndGet);
            } catch (Throwable t) {
                sendFailure.set(t);
            }
        });
        awaitQueueDepth(ctx, 41);
        List<Runnable> returned = ctx.closeNow(); // returns at once: the running callback is not waited for
        assertThatThrownBy(() -> ctx.post(() -> { })).isInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining("'close-now'");
        assertThat(ctx.invokeAsync(() -> { })).isCompletedExceptionally();
        assertThat(pending.futures()).as("cancelled when closeNow returns")
                .allSatisfy(f -> assertThat(f).isCancelled());
        sender.join(HANG_GUARD.toMillis());
        assertThat(ctx.awaitTermination(Duration.ofMillis(10))).as("terminated while a callback runs").isFalse();
        hold.release(); // the running callback returns; its drain leaves without starting the rest

        assertThat(ctx.awaitTermination(HANG_GUARD)).isTrue();
        assertThat(returned).containsExactlyElementsOf(pending.posts());
        assertThat(sendFailure.get()).isInstanceOf(RejectedExecutionException.class);
        assertThat(ranAfter).as("nothing pending ran after closeNow").hasValue(0);
        assertThat(observer.count(CallbackPath.QUEUED, CallbackOutcome.CANCELLED)).as(observer.toString()).isEqualTo(40);
        assertThat(observer.count(CallbackPath.SEND, CallbackOutcome.CANCELLED)).as(observer.toString()).isEqualTo(1);
    }

    @Test
    void closeNowFromInsideACallbackAbortsThePendingAndReturns() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.builder().name("close-now-inside").executor(pool).build();
        AtomicReference<List<Runnable>> returned = new AtomicReference<>();
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch queuedUp = new CountDownLatch(1);
        AtomicInteger ranAfter = new AtomicInteger();
        Runnable pendingPost = ranAfter::incrementAndGet;
        Thread owner = threads.start("owner", () -> ctx.invokeAsync(() -> {
            inside.countDown();
            await(queuedUp);
            returned.set(ctx.closeNow());
        }).join());
        await(inside);
        CompletableFuture<Integer> pendingFuture = ctx.invokeAsync(ranAfter::incrementAndGet);
        ctx.post(pendingPost);
        queuedUp.countDown();
        owner.join(HANG_GUARD.toMillis());
        assertThat(returned.get()).containsExactly(pendingPost);
        assertThat(pendingFuture).isCancelled();
        assertThat(ctx.awaitTermination(HANG_GUARD)).isTrue();
        assertThat(ranAfter).hasValue(0);
    }

}
