package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.testing.NoThreadLeftStuck;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A thread blocked in {@code join()}/{@code get()} on its queued call is handed the context when the owner
 * reaches that call while it spins (QueuedFuture, "A waiting caller runs its own turn"): it runs the call
 * on its own thread, nothing else, and no drain is scheduled for it. Each rule with a {@link ManualExecutor}
 * (so a drain handed to the executor is visible and runs only when the test says) and a waiter whose spin
 * is made long enough ({@link ContextBuilder#turnSpins}) to be reached deterministically.
 */
class WaiterRunsOwnTurnTest {

    @RegisterExtension
    final NoThreadLeftStuck guard = new NoThreadLeftStuck();

    private final ManualExecutor executor = new ManualExecutor();
    /** The waiter leaves its offer only when given its turn or done. */
    private final RendererSyncContext ctx = turns(Integer.MAX_VALUE);

    private RendererSyncContext turns(int turnSpins) {
        return new ContextBuilder().turnSpins(turnSpins).name("turns").executor(executor).build();
    }

    @Test
    void anInlineCallerReleasingHandsTheContextToTheWaiterOfTheNextCallAndNoDrainIsScheduled() throws Exception {
        Occupier occupier = Occupier.occupy(ctx);
        Waiter<Thread> waiter = waitFor(() -> ctx.invokeAsync(() -> {
            assertThat(ctx.checkAccess()).as("the waiter owns the context while its call runs").isTrue();
            return Thread.currentThread();
        }));
        waiter.awaitSpinning();

        occupier.close();

        assertThat(waiter.result()).as("the call ran on its waiting caller's thread").isSameAs(waiter.thread);
        assertThat(executor.submitted()).as("no drain was handed to the executor").isZero();
        assertThat(ctx.queueDepth()).isZero();
        assertThat(ranInline(ctx)).as("the context is idle again: the next call runs inline").isTrue();
    }

    @Test
    void premiseWithoutTheOfferTheReleasingCallerHandsTheCallToADrain() throws Exception {
        RendererSyncContext ctx = turns(0); // no offer
        Occupier occupier = Occupier.occupy(ctx);
        Waiter<Thread> waiter = waitFor(() -> ctx.invokeAsync(() -> Thread.currentThread()));
        waiter.awaitParked();

        occupier.close();
        assertThat(executor.submitted()).as("the release handed the queued call to a drain").isEqualTo(1);
        executor.runUntilIdle();

        assertThat(waiter.result()).as("the drain ran it, here").isSameAs(Thread.currentThread());
    }

    @Test
    void aWaiterThatBeginsToSpinAfterTheReleaseTakesOverTheDrainNotStartedYetAndRunsItsCall() throws Exception {
        Occupier occupier = Occupier.occupy(ctx);
        CountDownLatch join = new CountDownLatch(1);
        Waiter<Thread> waiter = new Waiter<>(() -> ctx.invokeAsync(() -> Thread.currentThread()), join);
        occupier.close(); // nobody spins yet: the release hands the call to a drain on the executor
        assertThat(executor.pending()).as("a drain handed to the executor, not started").isEqualTo(1);

        join.countDown();

        assertThat(waiter.result()).as("the waiter took the drain over and ran its call").isSameAs(waiter.thread);
        assertThat(executor.runUntilIdle()).as("the executor's task still runs").isEqualTo(1);
        assertThat(ctx.queueDepth()).isZero();
        assertThat(ranInline(ctx)).as("and finds the drain taken: the context is idle").isTrue();
    }

    @Test
    void aDrainThatTakesTheCallOfASpinningWaiterHandsItTheContextAndStops() throws Exception {
        List<String> ran = new CopyOnWriteArrayList<>();
        Occupier occupier = Occupier.occupy(ctx);
        ctx.post(() -> ran.add("post before, on " + Thread.currentThread().getName()));
        Waiter<Thread> waiter = waitFor(() -> ctx.invokeAsync(() -> Thread.currentThread()));
        waiter.awaitSpinning();
        occupier.close(); // the next item is a post: the release hands the queue to a drain
        assertThat(executor.pending()).isEqualTo(1);

        Thread drain = new Thread(executor::runUntilIdle, "drain");
        drain.start();
        drain.join(TimeUnit.SECONDS.toMillis(10));

        assertThat(ran).as("the drain ran the post before the call").containsExactly("post before, on drain");
        assertThat(waiter.result()).as("the drain handed the call to its waiter").isSameAs(waiter.thread);
        assertThat(executor.submitted()).as("one drain, for the post").isEqualTo(1);
        assertThat(ranInline(ctx)).isTrue();
    }

    @Test
    void theWaiterRunsOnlyItsOwnCallWhatQueuedBehindItGoesToADrain() throws Exception {
        AtomicReference<Thread> postRanOn = new AtomicReference<>();
        CountDownLatch callRunning = new CountDownLatch(1);
        CountDownLatch postQueued = new CountDownLatch(1);
        Occupier occupier = Occupier.occupy(ctx);
        Waiter<Thread> waiter = waitFor(() -> ctx.invokeAsync(() -> {
            callRunning.countDown();
            Occupier.awaitUninterruptibly(postQueued);
            return Thread.currentThread();
        }));
        waiter.awaitSpinning();
        occupier.release();
        Occupier.awaitUninterruptibly(callRunning);
        ctx.post(() -> postRanOn.set(Thread.currentThread()));
        postQueued.countDown();

        assertThat(waiter.result()).isSameAs(waiter.thread);
        assertThat(postRanOn.get()).as("the post queued behind the call did not run on the waiter").isNull();
        assertThat(executor.submitted()).as("the waiter's release handed the post to a drain").isEqualTo(1);
        executor.runUntilIdle();
        assertThat(postRanOn.get()).isSameAs(Thread.currentThread());
        occupier.close();
    }

    @Test
    void aWaiterOnALaterCallIsNotHandedTheContextBeforeTheCallsAheadOfItRan() throws Exception {
        List<String> order = new CopyOnWriteArrayList<>();
        Occupier occupier = Occupier.occupy(ctx);
        CompletableFuture<Void> first = ctx.invokeAsync((Runnable) () -> order.add("first"));
        Waiter<String> second = waitFor(() -> ctx.invokeAsync(() -> {
            order.add("second");
            return Thread.currentThread().getName();
        }));
        second.awaitSpinning();

        occupier.close();
        assertThat(executor.pending()).as("the first call, not the waiter's, is next: a drain").isEqualTo(1);
        assertThat(order).isEmpty();
        Thread drain = new Thread(executor::runUntilIdle, "drain");
        drain.start();
        drain.join(TimeUnit.SECONDS.toMillis(10));

        assertThat(first).isCompleted();
        assertThat(second.result()).as("handed the context once the drain reached it").isEqualTo(second.thread.getName());
        assertThat(order).containsExactly("first", "second");
    }

    @Test
    void closeNowWhileTheWaiterSpinsFailsItsCallWhichNeverRuns() throws Exception {
        AtomicReference<Boolean> ran = new AtomicReference<>(false);
        Occupier occupier = Occupier.occupy(ctx);
        Waiter<Void> waiter = waitFor(() -> ctx.invokeAsync((Runnable) () -> ran.set(true)));
        waiter.awaitSpinning();

        assertThat(ctx.closeNow()).isEmpty();
        occupier.close();

        assertThatThrownBy(waiter::result).isInstanceOf(CancellationException.class)
                .hasStackTraceContaining("closeNow() before this callback started"); // Java 25 wraps it in a CancellationException("join")
        assertThat(ran.get()).isFalse();
        assertThat(ctx.awaitTermination(Duration.ofSeconds(10))).isTrue();
        assertThat(executor.submitted()).isZero();
    }

    @Test
    void aWaitFromInsideTheCallsOwnContextDoesNotSpinItIsADeadlock() {
        CompletableFuture<Object> outcome = ctx.invokeAsync(() -> {
            // Another thread's call, queued behind this very callback.
            CompletableFuture<CompletableFuture<Void>> submitted = new CompletableFuture<>();
            Thread other = guard.watch(new Thread(() -> submitted.complete(ctx.invokeAsync(() -> { })), "other"));
            other.start();
            CompletableFuture<Void> queued = submitted.get(10, TimeUnit.SECONDS);
            try {
                queued.join();
                return "joined";
            } catch (ContextDeadlockException expected) {
                return ((QueuedFuture<?>) queued).turnState();
            }
        });
        assertThat(outcome.join()).as("no offer was made from inside").isEqualTo(QueuedFuture.NOT_WAITING);
        executor.runUntilIdle(); // the other thread's call
    }

    private static boolean ranInline(RendererSyncContext ctx) {
        Thread caller = Thread.currentThread();
        AtomicReference<Thread> on = new AtomicReference<>();
        CompletableFuture<Void> done = ctx.invokeAsync(() -> on.set(Thread.currentThread()));
        return done.isDone() && on.get() == caller;
    }

    private <T> Waiter<T> waitFor(Supplier<CompletableFuture<T>> call) {
        return new Waiter<>(call);
    }

    /** A thread that submits a call (queued: the context is busy) and blocks in {@code join()} on it. */
    private final class Waiter<T> {

        final Thread thread;
        private final AtomicReference<CompletableFuture<T>> future = new AtomicReference<>();
        /** What the waiter's join returned or threw, as thrown (a future would wrap a CancellationException anew on Java 25). */
        private final AtomicReference<T> value = new AtomicReference<>();
        private final AtomicReference<Throwable> thrown = new AtomicReference<>();
        private final CountDownLatch joined = new CountDownLatch(1);
        private final CountDownLatch submitted = new CountDownLatch(1);

        Waiter(Supplier<CompletableFuture<T>> call) {
            this(call, new CountDownLatch(0));
        }

        /** Submits at once, joins once {@code join} is released. */
        Waiter(Supplier<CompletableFuture<T>> call, CountDownLatch join) {
            thread = guard.watch(new Thread(() -> {
                CompletableFuture<T> f = call.get();
                future.set(f);
                submitted.countDown();
                Occupier.awaitUninterruptibly(join);
                try {
                    value.set(f.join());
                } catch (Throwable failure) {
                    thrown.set(failure);
                } finally {
                    joined.countDown();
                }
            }, "waiter"));
            thread.start();
            Occupier.awaitUninterruptibly(submitted);
        }

        void awaitSpinning() {
            QueuedFuture<?> queued = (QueuedFuture<?>) future.get();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (queued.turnState() != QueuedFuture.SPINNING) {
                assertThat(System.nanoTime()).as("the waiter spins within 10 s").isLessThan(deadline);
                Thread.onSpinWait();
            }
        }

        void awaitParked() {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (thread.getState() != Thread.State.WAITING) {
                assertThat(System.nanoTime()).as("the waiter parks within 10 s").isLessThan(deadline);
                Thread.onSpinWait();
            }
        }

        T result() throws Exception {
            try {
                if (!joined.await(10, TimeUnit.SECONDS)) {
                    throw new AssertionError("the waiter's join did not return within 10 s");
                }
            } finally {
                thread.join(TimeUnit.SECONDS.toMillis(10));
            }
            Throwable failure = thrown.get();
            if (failure instanceof RuntimeException thrownByJoin) {
                throw thrownByJoin;
            }
            if (failure != null) {
                throw new AssertionError("the waiter's join threw", failure);
            }
            return value.get();
        }
    }
}
