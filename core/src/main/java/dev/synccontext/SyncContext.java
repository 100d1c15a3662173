package dev.synccontext;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * The one implementation of {@link RendererSyncContext}. The state word ({@link ContextState}: a count,
 * four flags, the queue's sequence) decides who owns the context; every change of it is a method here
 * (docs/DESIGN.md, "The state machine", lists them with their methods).
 *
 * <h2>How it works</h2>
 * Idle {@code invokeAsync}: one CAS to claim, the callback on the caller's thread, one CAS back to 0;
 * no allocation on success. A caller never runs other callers' work: what queued up meanwhile goes to a
 * drain on the executor, or to a thread that waits for its own call. A queued submission is one CAS too
 * (count + 1 and sequence + 1: {@link #reserved}), then a plain write of its slot in the chunked queue
 * this class inherits ({@link CallbackQueue}). A post's slot holds the runnable itself; an
 * {@code invokeAsync*}'s holds the returned future, as in Blazor's 2023 rework of
 * {@code RendererSynchronizationContext} ("Reduce allocations in RendererSynchronizationContext").
 * The owner gives back what it finished in one CAS when it runs dry or yields, not per callback, and
 * publishes that progress ({@link #setProgress}) so {@link #queueDepth()} stays right. The CAS that gives
 * the context up empty drops the chunks and restarts the sequence ({@link #giveUpEmpty}): an idle, open
 * context is the state 0 and holds no array.
 *
 * <h2>Known limits</h2>
 * A {@link StackOverflowError} inside this class itself, between a claim or reservation and its release or
 * link, leaves the count one too high and wedges the context (a callback that overflows is handled like
 * any other failure). An executor that accepts a drain and silently drops it (a discard policy) strands
 * the queue until {@link #closeNow()}, which takes it over.
 *
 * <h2>What lives beside this class</h2>
 * The state word's layout, its reads and the owner token's rule: {@link ContextState}. The owner's loop:
 * {@link Drain}. Running a callback: {@link CallbackRunner}. A sender's and a waiter's wait: {@link QueuedSend},
 * {@link QueuedFuture}. The termination and why {@link #closeNow()} never waits: {@link Termination}.
 */
final class SyncContext extends ContextState implements RendererSyncContext, Runnable {

    SyncContext(String name, ContextSettings settings) {
        super(name, settings);
    }

    // ---------------------------------------------------------------- invokeAsync*

    @Override
    public CompletableFuture<Void> invokeAsync(Runnable callback) {
        Objects.requireNonNull(callback, "callback");
        // Fast path: open and idle (a caller inside the context always sees a count above zero).
        if (STATE.compareAndSet(this, 0L, (long) (1 + RUNNING))) {
            return invokeInline(callback, Invocation.RUNNABLE, Thread.currentThread());
        }
        return submit(callback, Invocation.RUNNABLE);
    }

    @Override
    public <T> CompletableFuture<T> invokeAsync(Callable<T> callback) {
        Objects.requireNonNull(callback, "callback");
        if (STATE.compareAndSet(this, 0L, (long) (1 + RUNNING))) {
            return invokeInline(callback, Invocation.CALLABLE, Thread.currentThread());
        }
        return submit(callback, Invocation.CALLABLE);
    }

    @Override
    public <T> CompletableFuture<T> invokeAsyncStage(Callable<? extends CompletionStage<T>> callback) {
        Objects.requireNonNull(callback, "callback");
        if (STATE.compareAndSet(this, 0L, (long) (1 + RUNNING))) {
            return invokeInline(callback, Invocation.STAGE, Thread.currentThread());
        }
        return submit(callback, Invocation.STAGE);
    }

    private <T> CompletableFuture<T> submit(Object callback, Invocation how) {
        Thread caller = Thread.currentThread();
        if (OWNER.getOpaque(this) == caller) {
            // Called from inside this context: run it now, as a plain method call.
            return CallbackRunner.invoke(this, callback, how, CallbackPath.NESTED);
        }
        QueuedFuture<T> node = null;
        for (;;) {
            long s = state;
            if ((s & (COUNT_MASK | CLOSED)) == 0) {
                if (STATE.compareAndSet(this, s, s + 1 + RUNNING)) {
                    return invokeInline(callback, how, caller);
                }
                continue;
            }
            RejectedExecutionException refusal = refusal(s);
            if (refusal != null) {
                CallbackRunner.observe(this, CallbackPath.QUEUED, CallbackOutcome.REJECTED);
                return CompletableFuture.failedFuture(refusal);
            }
            if (node == null) {
                try {
                    node = how.queued(this, callback);
                } catch (Throwable decoratorFailure) {
                    return CompletableFuture.failedFuture(decoratorFailure);
                }
            }
            if (STATE.compareAndSet(this, s, reserved(s))) {
                enqueue(index(s), (s & CHUNKED) == 0, node);
                return node;
            }
        }
    }

    /** Runs a callback that claimed the idle context, on the caller's thread. */
    private <T> CompletableFuture<T> invokeInline(Object callback, Invocation how, Thread caller) {
        OWNER.setOpaque(this, caller);
        try {
            return CallbackRunner.invoke(this, callback, how, CallbackPath.INLINE);
        } finally {
            OWNER.setOpaque(this, null);
            giveUpFromCaller();
        }
    }

    // ---------------------------------------------------------------- post / execute

    @Override
    public void post(Runnable callback) {
        Objects.requireNonNull(callback, "callback");
        Object item = CallbackRunner.queuedPost(settings, callback);
        for (;;) {
            long s = state;
            RejectedExecutionException refusal = refusal(s);
            if (refusal != null) {
                CallbackRunner.observe(this, CallbackPath.QUEUED, CallbackOutcome.REJECTED);
                throw refusal;
            }
            boolean idle = (s & COUNT_MASK) == 0; // then this post owns the context, and hands it to a drain
            if (STATE.compareAndSet(this, s, idle ? reserved(s) + SCHEDULED : reserved(s))) {
                enqueue(index(s), (s & CHUNKED) == 0, item);
                if (idle) {
                    scheduleDrain();
                }
                return;
            }
        }
    }

    @Override
    public void execute(Runnable callback) {
        post(callback);
    }

    /**
     * A post and {@link #close()} in one CAS: the reservation that takes {@code last}'s index also sets
     * {@code CLOSED}, so every reservation before it has a lower index (it runs before {@code last}) and
     * every one after it fails. The queue bound does not apply: the last callback of a context is never
     * refused for its queue being full.
     */
    @Override
    public void closeAfter(Runnable last) {
        Objects.requireNonNull(last, "last");
        Termination.of(this); // as in close(): it exists before the state says closed
        Object item = CallbackRunner.queuedPost(settings, last);
        for (;;) {
            long s = state;
            if ((s & CLOSED) != 0) {
                CallbackRunner.observe(this, CallbackPath.QUEUED, CallbackOutcome.REJECTED);
                throw Refusals.closed(name, Termination.of(this));
            }
            boolean idle = (s & COUNT_MASK) == 0;
            if (STATE.compareAndSet(this, s, (idle ? reserved(s) + SCHEDULED : reserved(s)) | CLOSED)) {
                enqueue(index(s), (s & CHUNKED) == 0, item);
                if (idle) {
                    scheduleDrain();
                }
                return;
            }
        }
    }

    // ---------------------------------------------------------------- send

    @Override
    public void send(Runnable callback) {
        Objects.requireNonNull(callback, "callback");
        Thread caller = Thread.currentThread();
        if (OWNER.getOpaque(this) == caller) {
            CallbackRunner.rethrow(CallbackRunner.runOnCaller(this, callback, CallbackPath.NESTED));
            return;
        }
        QueuedSend node = null;
        for (;;) {
            long s = state;
            if ((s & (COUNT_MASK | CLOSED)) == 0) {
                if (STATE.compareAndSet(this, s, s + 1 + RUNNING)) {
                    runSendAsOwner(callback, caller);
                    return;
                }
                continue;
            }
            RejectedExecutionException refusal = refusal(s);
            if (refusal != null) {
                CallbackRunner.observe(this, CallbackPath.SEND, CallbackOutcome.REJECTED);
                throw refusal;
            }
            if (node == null) {
                node = new QueuedSend(this, callback, caller);
            }
            if (STATE.compareAndSet(this, s, reserved(s))) {
                enqueue(index(s), (s & CHUNKED) == 0, node);
                break;
            }
        }
        node.awaitOwnTurn(name); // returns owning the context, or throws why the callback will not run
        if ((state & ABORTED) != 0) {
            // closeNow() came between the hand-off and this thread waking up: it returned, so
            // nothing may start now. This thread owns the context; it only gives it back.
            giveUpFromCaller();
            CallbackRunner.observe(this, CallbackPath.SEND, CallbackOutcome.CANCELLED);
            throw Refusals.closedNowAtTurn(name);
        }
        runSendAsOwner(callback, caller);
    }

    /** The sender owns the context (claimed it idle, or was handed it): run, then release. */
    private void runSendAsOwner(Runnable callback, Thread caller) {
        OWNER.setOpaque(this, caller);
        Throwable failure;
        try {
            failure = CallbackRunner.runOnCaller(this, callback, CallbackPath.SEND);
        } finally {
            OWNER.setOpaque(this, null);
            giveUpFromCaller();
        }
        CallbackRunner.rethrow(failure);
    }

    // ---------------------------------------------------------------- ownership hand-over

    /**
     * Gives up the ownership a caller thread held for its own callback. Never runs anyone else's
     * callback here: if work queued up meanwhile, it goes to the thread waiting for the next call, when one
     * offers to run it ({@link #giveHeadCallToWaiter}), otherwise to a drain on the executor.
     */
    private void giveUpFromCaller() {
        if (STATE.compareAndSet(this, (long) (1 + RUNNING), 0L)) {
            return; // the common case: open, and nothing queued up meanwhile
        }
        for (;;) {
            long s = state;
            long count = s & COUNT_MASK;
            if ((s & ABORTED) != 0) {
                giveUpAborted(1); // closeNow() aborts what is queued; never touch the queue now
                return;
            } else if (count == 1) {
                // A sender handed the context by a drain may find the queue empty but with its chunk.
                if (giveUpEmpty(s, 1)) {
                    return;
                }
            } else if (giveHeadCallToWaiter()) {
                return;
            } else if (STATE.compareAndSet(this, s, s - 1 - RUNNING + SCHEDULED)) {
                scheduleDrain();
                return;
            }
        }
    }

    /**
     * An owner releasing after its own callback, with work queued: if the next index holds a call whose
     * caller spins for it (QueuedFuture, "A waiting caller runs its own turn"), gives that caller the context,
     * the call left in the queue for it. The owner's callback is given back first, so the waiter finds the
     * queue's count; {@code RUNNING} stays throughout. Called with the token cleared. False (nothing
     * changed) if the next call is not written yet, is not a call, or nobody spins for it.
     */
    private boolean giveHeadCallToWaiter() {
        if (!(peekWritten() instanceof QueuedFuture<?> call) || !call.reserveTurn()) {
            return false;
        }
        STATE.getAndAdd(this, -1L);
        call.giveTurn(false);
        return true;
    }

    /**
     * A drain took {@code call} and its caller spins in a wait for it: gives back the {@code done} callbacks,
     * then the context to that caller, who runs the call ({@link #runGivenTurn}). The token is cleared
     * before the hand-off, as in {@link #giveToSender}.
     *
     * @return true if the caller owns the context now; false if nobody spins for it (nothing changed: the
     *     drain runs it)
     */
    boolean giveTakenCallToWaiter(QueuedFuture<?> call, int done) {
        if (!call.reserveTurn()) {
            return false;
        }
        giveBackBeforeGiving(done);
        call.giveTurn(true);
        return true;
    }

    /**
     * A drain's step before it hands the context to another thread (a sender, a waiting caller): clears the
     * token and the progress and gives back the {@code done} callbacks, keeping {@code RUNNING} and the
     * handed callback's count for the thread it goes to.
     */
    private void giveBackBeforeGiving(int done) {
        OWNER.setOpaque(this, null);
        PROGRESS.setOpaque(this, 0);
        if (done > 0) {
            STATE.getAndAdd(this, (long) -done);
        }
    }

    /**
     * A caller spinning for {@code call} (QueuedFuture, "A waiting caller runs its own turn") finds a drain
     * scheduled and not started, with its call next: it takes the drain's ownership, as the drain task would
     * ({@link #takeScheduled}), and runs its call ({@link #runGivenTurn}, not taken); the task then finds
     * {@code SCHEDULED} gone and returns, as after a closeNow(). The head is read off the owner's thread,
     * so it is believed only if the state did not move meanwhile: the CAS from the state read before it.
     *
     * @return true if this thread owns the context now; false if nothing changed
     */
    boolean takeScheduledFor(QueuedFuture<?> call) {
        long s = state;
        return (s & (SCHEDULED | ABORTED)) == SCHEDULED && peekWritten() == call
                && STATE.compareAndSet(this, s, s - SCHEDULED + RUNNING);
    }

    /**
     * The waiting caller of {@code call} was handed the context ({@link #giveHeadCallToWaiter} and
     * {@link #takeScheduledFor}: {@code taken} false, the call at the queue's head;
     * {@link #giveTakenCallToWaiter}: taken): runs the call on this thread as the owner, then releases as
     * an inline caller does. If {@code closeNow()} came meanwhile, nothing starts: a call it claimed is its
     * to fail; one taken already fails here, as a send handed its turn does.
     */
    void runGivenTurn(QueuedFuture<?> call, boolean taken) {
        if ((state & ABORTED) != 0) {
            if (taken) {
                CallbackRunner.abortQueued(call, Refusals.callClosedNowAtTurn(name));
                CallbackRunner.observe(this, CallbackPath.QUEUED, CallbackOutcome.CANCELLED);
                giveUpAborted(1);
            } else {
                giveUpAborted(0); // closeNow()'s walk claims the call and counts it off
            }
            return;
        }
        Object item = taken ? call : takeNext();
        if (item == QueueChunk.TAKEN) {
            giveUpAborted(0); // closeNow() claimed it between the hand-off and this take, and counted it off
            return;
        }
        Thread self = Thread.currentThread();
        CallbackFrame frame = CallbackFrame.get();
        SyncContext outer = frame.enterDrain(this);
        OWNER.setOpaque(this, self);
        try {
            CallbackRunner.runQueued(this, item, frame, settings.observer);
        } finally {
            OWNER.setOpaque(this, null);
            frame.leave(outer);
            giveUpFromCaller();
        }
    }

    private void scheduleDrain() {
        try {
            settings.executor.execute(this);
        } catch (Throwable refused) {
            takeRefusedDrain(refused);
        }
    }

    /** The drain task. Only ever given to the executor, with {@code SCHEDULED} set. */
    @Override
    public void run() {
        if (takeScheduled()) {
            Drain.run(this);
        } // else closeNow() took the queue over before this drain started
    }

    /**
     * Takes the drain over from {@code SCHEDULED}: the ownership it was handed with becomes this
     * thread's ({@code RUNNING}). False if closeNow() took the queue over first; nothing to do then.
     */
    private boolean takeScheduled() {
        long s;
        do {
            s = state;
            if ((s & SCHEDULED) == 0) {
                return false;
            }
        } while (!STATE.compareAndSet(this, s, s - SCHEDULED + RUNNING));
        return true;
    }

    /**
     * The owning thread's step when it has taken every node it counted ({@code done} of them finished
     * but still in the count), or the context was force-closed: if force-closed, gives back what it
     * finished and leaves (closeNow() aborts the queue itself), otherwise gives ownership up. The token
     * is cleared before the CAS that could give ownership away.
     *
     * @return true if ownership is gone; false if the state moved meanwhile (a producer reserved or
     *     linked a node) and the owner must look again, token restored
     */
    boolean giveUp(long s, int done, Thread self) {
        OWNER.setOpaque(this, null);
        PROGRESS.setOpaque(this, 0);
        if ((s & ABORTED) != 0) {
            giveUpAborted(done);
            return true;
        }
        if (giveUpEmpty(s, done)) {
            return true;
        }
        OWNER.setOpaque(this, self);
        PROGRESS.setOpaque(this, done);
        return false;
    }

    /**
     * Fairness, once the drain has taken {@code maxBatch} nodes: gives back the {@code done} callbacks
     * and the ownership, with {@code SCHEDULED} set, so that the rest of the work queues behind others'
     * on the executor ({@link #resubmitOrTakeBack} hands it over). The token is cleared before the CAS.
     *
     * @return true if given up; false if the state moved meanwhile and the owner must look again, token
     *     and progress restored
     */
    boolean giveToExecutor(long s, int done, Thread self) {
        OWNER.setOpaque(this, null);
        PROGRESS.setOpaque(this, 0);
        if (STATE.compareAndSet(this, s, s - done - RUNNING + SCHEDULED)) {
            return true;
        }
        OWNER.setOpaque(this, self);
        PROGRESS.setOpaque(this, done);
        return false;
    }

    /**
     * A drain that goes on in place after its batches ({@link Drain#CARRY_LIMIT}) gives back all but one
     * of the {@code done} callbacks it finished: the one kept holds the count above zero while it owns
     * the context, so no submitter takes the context for idle meanwhile. The progress is set first, as in
     * {@link #giveToSender}, so {@link #queueDepth()} may read too many for a moment, never too few.
     *
     * @return the finished callbacks still counted: 1
     */
    int giveBackFinished(int done) {
        PROGRESS.setOpaque(this, 1);
        STATE.getAndAdd(this, (long) (1 - done));
        return 1;
    }

    /**
     * After {@link #giveToExecutor}: resubmits the drain. True if the executor took it (or closeNow() the
     * queue); false if the executor refused and this thread took the drain back, token restored: we are
     * already on an executor thread, so it drains on here rather than fail the work.
     */
    boolean resubmitOrTakeBack(Thread self) {
        try {
            settings.executor.execute(this);
            return true;
        } catch (Throwable refused) {
            if (!takeScheduled()) {
                return true; // closeNow() took the queue over meanwhile
            }
            OWNER.setOpaque(this, self);
            return false;
        }
    }

    /**
     * The drain claimed a send: gives back the {@code done} callbacks, then the context to the sender's
     * thread. The token is cleared before the hand-off.
     *
     * @return true if the sender owns the context now; false if it withdrew (interrupted) and this
     *     drain owns the context still, token restored and nothing left to give back
     */
    boolean giveToSender(QueuedSend send, int done, Thread self) {
        giveBackBeforeGiving(done);
        if (send.handOff()) {
            return true;
        }
        OWNER.setOpaque(this, self);
        CallbackRunner.observe(this, CallbackPath.SEND, CallbackOutcome.CANCELLED);
        return false;
    }

    /**
     * The executor refused a drain that a caller thread tried to schedule: unless closeNow() took the
     * queue over, this thread takes the drain's ownership and fails the queue ({@link Drain#failQueued}).
     */
    private void takeRefusedDrain(Throwable cause) {
        if (takeScheduled()) {
            Drain.failQueued(this, cause);
        }
    }

    // ---------------------------------------------------------------- close

    @Override
    public void closeForShutdown() {
        Termination.of(this).shuttingDownRelease(); // before CLOSED: a refusal that sees this close sees why
        close();
    }

    @Override
    public void closeForShutdownAfter(Runnable last) {
        Termination.of(this).shuttingDownRelease(); // as in closeForShutdown(): the reason before CLOSED
        closeAfter(last);
    }

    @Override
    public void close() {
        Termination t = Termination.of(this);
        long previous = (long) STATE.getAndBitwiseOr(this, (long) CLOSED);
        if ((previous & COUNT_MASK) == 0) {
            t.terminated.complete(null);
        }
    }

    @Override
    public List<Runnable> closeNow() {
        Termination t = Termination.of(this);
        long previous = (long) STATE.getAndBitwiseOr(this, CLOSED | ABORTED);
        Thread self = Thread.currentThread();
        if (t.abortingOn(self)) {
            // Re-entered from code the abort itself runs (an observer, a cancelled future's
            // dependent): that abort is under way on this very thread and returns the posts.
            return List.of();
        }
        if ((previous & COUNT_MASK) == 0) {
            t.terminated.complete(null);
            return List.of();
        }
        // A drain handed to the executor but not started (maybe never, if the executor stalls) will
        // find SCHEDULED gone and return at once. A running owner is not waited for: it leaves at its
        // next step, after the callback it runs, if any, returns.
        long s;
        while (((s = state) & SCHEDULED) != 0 && !STATE.compareAndSet(this, s, s - SCHEDULED)) {
            Thread.onSpinWait();
        }
        if ((previous & CHUNKED) == 0) {
            return List.of(); // nothing queued: only a running callback, which finishes by itself
        }
        Termination.Abort abort = t.abortQueued(this, index(previous));
        if (abort.count > 0) {
            terminateIfDone((long) STATE.getAndAdd(this, (long) -abort.count) - abort.count);
            FlightEvents.droppedWork(this, abort.count, abort.posts.size());
        }
        return abort.posts;
    }

    /**
     * The owner's exit from a force-closed context: gives back the {@code finished} callbacks still
     * counted and its ownership, without touching the queue (closeNow() aborts that).
     */
    private void giveUpAborted(int finished) {
        long delta = -(long) finished - RUNNING;
        terminateIfDone((long) STATE.getAndAdd(this, delta) + delta);
    }

    /**
     * The owner's give-up when every reserved index was taken ({@code finished} callbacks still counted):
     * drops the queue's chunks ({@link CallbackQueue#forgetChunks}) and gives the context up with one
     * CAS that also clears {@code CHUNKED} and restarts the sequence; so an idle context is the state 0
     * and holds no array. False if the state moved meanwhile (chunks put back): look again.
     */
    private boolean giveUpEmpty(long s, int finished) {
        int index = headIndex;
        QueueChunk head = forgetChunks();
        long released = (s & COUNT_AND_FLAGS) - finished - RUNNING;
        if (STATE.compareAndSet(this, s, released)) {
            terminateIfDone(released);
            return true;
        }
        restoreChunks(head, index);
        return false;
    }

    private void terminateIfDone(long newState) {
        if ((newState & (COUNT_MASK | CLOSED)) == CLOSED) {
            Termination.of(this).terminated.complete(null);
        }
    }

    @Override
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        Objects.requireNonNull(timeout, "timeout");
        return Termination.of(this).await(this, timeout);
    }

    // ---------------------------------------------------------------- the token and the progress

    /**
     * A thread that took the context (a drain, a caller refused a drain) sets its token: from now on
     * {@link #checkAccess()} is true on it. Cleared again by the step that gives the context away.
     */
    void takeToken(Thread self) {
        OWNER.setOpaque(this, self);
    }

    /** The owner publishes the callbacks it finished and still counts, so {@link #queueDepth()} stays right. */
    void setProgress(int finished) {
        PROGRESS.setOpaque(this, finished);
    }
}
