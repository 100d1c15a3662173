package dev.synccontext;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A queued {@code invokeAsync*} call: the future returned to the caller. A blocking {@link #join()} or
 * {@link #get()} on it from inside a context that could never end (its callback is queued behind the
 * caller, is the caller, or waits through other contexts on the caller's) throws
 * {@link ContextDeadlockException} instead of hanging ({@link WaitGraph}); so do waits on the futures
 * derived from it ({@link DerivedFuture}).
 *
 * <h2>A waiting caller runs its own turn</h2>
 * A thread that blocks in {@code join()} or {@code get()} on this future first offers to run the call
 * itself: for a short, bounded spin ({@link #TURN_SPINS} looks) its {@link #turn} says {@code SPINNING}.
 * While it spins, a drain handed to the executor and not started yet, with this call next in the queue,
 * is taken over by the waiter ({@link SyncContext#takeScheduledFor}: the release that scheduled it came
 * a moment before the waiter began to spin). An owner that reaches this call while it spins (an inline
 * caller releasing the context with this call next in the queue, or a drain that took it:
 * {@link SyncContext#giveHeadCallToWaiter}, {@link SyncContext#giveTakenCallToWaiter}) hands it the context instead of
 * running the call or scheduling a drain for it: it reserves the turn ({@code SPINNING} → {@code RESERVED}, one CAS that the waiter's
 * giving up races), gives back its own finished callbacks, then publishes {@code HANDED} (the call still in
 * the queue, the waiter takes it) or {@code HANDED_TAKEN} (the drain took it). The waiter then runs the
 * call on its own thread as the context's owner and releases the context as an inline caller does (what
 * queued up behind goes to a drain on the executor; {@link SyncContext#runGivenTurn}). So two threads
 * that take turns on one context ({@code Contended}) pass it between them as a lock would, with no
 * executor thread woken and no park, where each call used to cost a park and an unpark behind a drain that
 * kept the context (docs/2026-12-01-contended-slow-mode.md). Order, the count and {@code closeNow()} are
 * unchanged: the call is taken at its place in the queue by whoever owns the context, once.
 *
 * <p>The waiter's thread is a thread that was going to block anyway, and the call is its own: the
 * releasing caller still never runs other callers' work, and the waiter runs nothing but its own call. A
 * timed {@code get} that is handed its turn runs the call to its end, past the timeout if the call takes
 * longer (the timeout bounds the wait for the turn, as it would a callback that runs inline). A wait from
 * inside this future's own context does not spin (it is a deadlock, and says so).
 */
abstract sealed class QueuedFuture<T> extends QueuedCallback<T> implements Awaited permits QueuedCall, QueuedStage {

    /** {@link #turn}: no thread offers to run this call. */
    static final int NOT_WAITING = 0;
    /** {@link #turn}: a waiting thread spins, ready to be handed the context for this call. */
    static final int SPINNING = 1;
    /** {@link #turn}: an owner reserved the spinning waiter: the hand-off follows, the waiter may not leave. */
    static final int RESERVED = 2;
    /** {@link #turn}: the waiter owns the context; the call is still in the queue, at its head. */
    static final int HANDED = 3;
    /** {@link #turn}: the waiter owns the context; the drain took the call out of the queue already. */
    static final int HANDED_TAKEN = 4;

    /**
     * How many times a waiter looks for its turn (each look one {@link Thread#onSpinWait}) before it parks:
     * about 8 µs on the machine bench/README.md describes (1,024 looks took 31–36 µs there), a little more
     * than an unpark and a wake-up cost, which is what the spin saves; none on one CPU, where the owner
     * cannot run while the waiter spins. {@code Contended} on a quiet machine: 800 ns per call without the
     * spin's take-over of a scheduled drain, 210 ns with it at 256 looks, 146 ns at 1,024
     * (docs/2026-12-01-contended-slow-mode.md).
     */
    static final int TURN_SPINS = Runtime.getRuntime().availableProcessors() > 1 ? 256 : 0;

    private static final VarHandle TURN =
            FieldHandles.find(MethodHandles.lookup(), QueuedFuture.class, "turn", int.class);

    final SyncContext context;
    /** See "A waiting caller runs its own turn"; the int fills the object's alignment gap (no size added). */
    private volatile int turn;

    QueuedFuture(SyncContext context, Object callback) {
        super(callback);
        this.context = context;
    }

    /** For an owner that reached this call: reserves the spinning waiter's turn; false if none spins. */
    final boolean reserveTurn() {
        return turn == SPINNING && TURN.compareAndSet(this, SPINNING, RESERVED);
    }

    /** After {@link #reserveTurn}: gives the context to the waiter ({@code taken}: the call is out of the queue). */
    final void giveTurn(boolean taken) {
        turn = taken ? HANDED_TAKEN : HANDED;
    }

    /**
     * The waiting thread's offer ("A waiting caller runs its own turn"): spins for at most
     * {@link #TURN_SPINS} looks while the call is not done; if an owner hands it the context meanwhile,
     * leaves {@code wait} (the wait graph must not see this thread wait for a context it owns) and runs the
     * call. Returns the wait still to be left by the caller: {@code wait}, or the one entered again after
     * the turn (a stage not yet complete), or null.
     */
    private WaitGraph.@Nullable Wait offerToRun(WaitGraph.@Nullable Wait wait) {
        int spins = context.settings.turnSpins; // read once per blocking wait, when the call is not done
        if (spins == 0 || !TURN.compareAndSet(this, NOT_WAITING, SPINNING)) {
            return wait; // another thread offers already, or one did and was handed the turn
        }
        for (int i = 0; i < spins && turn == SPINNING && !isDone(); i++) {
            if (context.takeScheduledFor(this)) {
                turn = HANDED; // this thread owns the context now, the call still at the queue's head
                break;
            }
            Thread.onSpinWait();
        }
        if (TURN.compareAndSet(this, SPINNING, NOT_WAITING)) {
            return wait; // not handed: park as any waiter
        }
        int t;
        while ((t = turn) == RESERVED) {
            Thread.onSpinWait(); // the owner is between its reservation and the hand-off: a few instructions
        }
        WaitGraph.leave(wait);
        context.runGivenTurn(this, t == HANDED_TAKEN);
        // A stage's future completes later, with its stage: the rest of that wait is a wait like any other.
        return isDone() ? null : WaitGraph.enterOrThrow(this);
    }

    /** The turn's state, for tests: {@link #NOT_WAITING}, {@link #SPINNING}, ... */
    final int turnState() {
        return turn;
    }

    /** Whether a blocking wait may offer to run the call: not from inside its own context (a deadlock). */
    private boolean mayOffer() {
        return !context.checkAccess();
    }

    @Override
    final @Nullable Runnable abort(Object callback, Throwable reason) {
        completeExceptionally(reason);
        return null;
    }

    @Override
    public T join() {
        if (isDone()) {
            return super.join();
        }
        WaitGraph.@Nullable Wait wait = WaitGraph.enterOrThrow(this);
        try {
            if (mayOffer()) {
                wait = offerToRun(wait);
            }
            return super.join();
        } finally {
            WaitGraph.leave(wait);
        }
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        if (isDone()) {
            return super.get();
        }
        WaitGraph.@Nullable Wait wait = WaitGraph.enterOrThrow(this);
        try {
            if (mayOffer()) {
                wait = offerToRun(wait);
            }
            return super.get();
        } finally {
            WaitGraph.leave(wait);
        }
    }

    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        if (isDone()) {
            return super.get(timeout, unit);
        }
        WaitGraph.@Nullable Wait wait = WaitGraph.enterOrThrow(this);
        try {
            if (timeout > 0 && mayOffer()) {
                wait = offerToRun(wait);
            }
            return super.get(timeout, unit);
        } finally {
            WaitGraph.leave(wait);
        }
    }

    // Derived futures remember where they come from, so that a wait on them is seen as well.

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new DerivedFuture<>(this);
    }

    @Override
    public <U> CompletableFuture<U> thenApplyAsync(Function<? super T, ? extends U> fn, Executor executor) {
        return DerivedFuture.runsOn(super.thenApplyAsync(fn, executor), executor);
    }

    @Override
    public CompletableFuture<Void> thenAcceptAsync(Consumer<? super T> action, Executor executor) {
        return DerivedFuture.runsOn(super.thenAcceptAsync(action, executor), executor);
    }

    @Override
    public CompletableFuture<Void> thenRunAsync(Runnable action, Executor executor) {
        return DerivedFuture.runsOn(super.thenRunAsync(action, executor), executor);
    }

    @Override
    public <U> CompletableFuture<U> handleAsync(BiFunction<? super T, Throwable, ? extends U> fn,
            Executor executor) {
        return DerivedFuture.runsOn(super.handleAsync(fn, executor), executor);
    }

    @Override
    public CompletableFuture<T> whenCompleteAsync(BiConsumer<? super T, ? super Throwable> action,
            Executor executor) {
        return DerivedFuture.runsOn(super.whenCompleteAsync(action, executor), executor);
    }
}
