package dev.synccontext;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * The one implementation of {@link RendererSyncContext}.
 *
 * <h2>How it works</h2>
 * One {@code long} word, {@link #state}, carries everything that decides who may run what: the
 * <em>count</em> of callbacks accepted and not yet finished (low 28 bits), four flags, whether the queue
 * has a chunk ({@code CHUNKED}) and the queue's <em>sequence</em> (top 31 bits: the next index to hand
 * out). Whoever moves the count from 0 to 1 <em>owns</em> the context and answers for every callback
 * until the count is back to 0. Ownership is always in exactly one of two places, told by the flags:
 * <ul>
 *   <li>{@code RUNNING}: a thread holds it: an inline caller, a {@code send}er, or a drain.</li>
 *   <li>{@code SCHEDULED}: a drain was handed to the executor and has not started yet.</li>
 * </ul>
 * {@code CLOSED} makes every later reservation fail; {@code ABORTED} (with {@code CLOSED}) asks the
 * owner to abort what is queued instead of running it.
 *
 * <p>Idle {@code invokeAsync}: one CAS (state 0 → count 1, {@code RUNNING}), run the callback on the
 * caller's thread, one CAS back to 0. No allocation on success. If callbacks queued up meanwhile, the
 * release CAS swaps {@code RUNNING} for {@code SCHEDULED} and hands a drain to the executor: the caller
 * never runs other callers' work. A queued submission is one CAS too: count + 1 and sequence + 1 at once
 * ({@link #reserved}), which gives it its index; it then writes its callback into that index's slot of
 * the chunked array queue this class inherits ({@link CallbackQueue}), with no further atomic. A
 * {@code post}'s slot holds the posted runnable itself, so a queued post allocates nothing but its share
 * of an array (about 4 bytes); an {@code invokeAsync*}'s holds the returned future, so a queued call
 * allocates one object, as in Blazor's 2023 rework of {@code RendererSynchronizationContext}
 * (dotnet/aspnetcore, "Reduce allocations in RendererSynchronizationContext"): inline when idle, the
 * returned task doubling as the queue entry.
 *
 * <p>Because reservations happen before writing, the owner knows how many slots are written (or are
 * about to be): a drain takes {@code count} of them, waiting a few spins for a producer that reserved but
 * has not written yet. It subtracts what it finished in one CAS when it runs dry or yields after a batch
 * (or, going on in place after its batches, every {@link Drain#CARRY_LIMIT} callbacks:
 * {@link #giveBackFinished}), rather than per callback, and publishes that progress in
 * {@link OwnerSide#progress} so {@link #queueDepth()} stays right. The CAS that gives the context up
 * with nothing left queued drops the chunks, clears {@code CHUNKED} and restarts the sequence at 0
 * ({@link #giveUpEmpty}): an idle, open context is the state 0 and holds no array, and the first
 * reservation after creates a small one.
 *
 * <h2>Stepping back from a producer</h2>
 * A drain that catches up with a producer (it finds fewer than {@value #TAILING_RUN} callbacks waiting
 * and the next slot was not written yet when it looked: the producer is between its reservation and its
 * write) would otherwise follow right behind it, taking each slot as it is written, and the context's
 * state word and the slots' cache line would move between the two CPUs with every post. On the
 * default executor it steps back instead ({@link ElasticExecutor#stepBack}: a bounded spin that writes
 * nothing shared, skipped while other tasks are queued), so that its next run is a batch. That is the
 * same as one callback having taken a little longer: ownership, order and the count do not change.
 * It happens again only after the drain has run {@value #TAILING_RUN} more callbacks, so a producer
 * that is merely slow costs at most one step back per drain.
 *
 * <h2>Force-close without waiting</h2>
 * {@link #closeNow()} never waits for the owner. Every slot is claimed exactly once, by one atomic
 * exchange on it ({@link QueueChunk#claim}): by the owner to run its callback, by closeNow() to abort
 * it. closeNow() marks the context {@code ABORTED} with one atomic or, which also reads the sequence:
 * every reservation before it has an index below that sequence, and every one after fails (the context
 * is closed). It then walks the queue from the owner's head chunk up to that index without owning the
 * context ({@link CallbackQueue#visitQueued}, waiting for a slot reserved but not yet written), and
 * subtracts what it aborted from the count. So once closeNow() has returned, the owner finds every slot
 * claimed, and nothing starts but the callback it had already claimed. When the owner next looks at the
 * state it gives back what it finished and leaves the queue alone. Whoever brings the count to zero
 * completes the termination.
 *
 * <h2>Ownership token</h2>
 * {@link OwnerSide#owner} holds the thread that runs a callback of this context (for a drain, for its whole
 * batch). It is cleared <em>before</em> the CAS that gives ownership away, never after, so it can
 * never erase the next owner's token. A thread can only ever see its own reference in it while it
 * owns the context, which is what makes {@link #checkAccess()} exact without a thread-local.
 *
 * <h2>Known limits</h2>
 * A {@link StackOverflowError} that strikes inside this class itself, between a successful claim or
 * reservation and the matching release or link (the caller already at the very edge of its stack),
 * leaves the count one too high and wedges the context; a callback that overflows is handled like
 * any other failure. An executor that accepts a drain and silently drops it (a discard policy) strands
 * the queue until {@link #closeNow()}, which takes it over.
 *
 * <h2>What lives beside this class</h2>
 * Every change of the state word (a CAS, or an atomic add or or) is made here, with the token cleared
 * before each one that gives ownership away. The owner's loop over the queue is {@link Drain}'s: it
 * reads the state and calls the steps here that change it. Running a callback once it may run, and
 * telling the observer, is {@link CallbackRunner}'s; each {@code invokeAsync*} kind's own code is its
 * {@link Invocation} constant's; a sender's wait for its turn is {@link QueuedSend}'s; waiting for the
 * termination and closeNow()'s walk are {@link Termination}'s; what a refused caller is told,
 * {@link Refusals}'.
 */
final class SyncContext extends CallbackQueue implements RendererSyncContext, Runnable {

    static final java.util.concurrent.atomic.LongAdder C_QUEUED = new java.util.concurrent.atomic.LongAdder(),
            C_INLINE = new java.util.concurrent.atomic.LongAdder(), C_SCHED = new java.util.concurrent.atomic.LongAdder(),
            C_DRAINS = new java.util.concurrent.atomic.LongAdder(), C_HT = new java.util.concurrent.atomic.LongAdder(),
            C_HU = new java.util.concurrent.atomic.LongAdder(), C_OFFER = new java.util.concurrent.atomic.LongAdder(),
            C_OFFER_DONE = new java.util.concurrent.atomic.LongAdder(), C_OFFER_PARK = new java.util.concurrent.atomic.LongAdder(),
            C_RELEASE_PEEK_MISS = new java.util.concurrent.atomic.LongAdder(), C_RELEASE_NOT_SPINNING = new java.util.concurrent.atomic.LongAdder(), C_TAKE_SCHED = new java.util.concurrent.atomic.LongAdder();
    static {
        String f = System.getProperty("probe.exitReport");
        if (f != null) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                String line = "queued=" + C_QUEUED + " inline=" + C_INLINE + " scheduled=" + C_SCHED + " drains=" + C_DRAINS
                        + " handedTaken=" + C_HT + " handedUntaken=" + C_HU + " offers=" + C_OFFER + " offerDone=" + C_OFFER_DONE
                        + " offerPark=" + C_OFFER_PARK + " releasePeekNotCall=" + C_RELEASE_PEEK_MISS + " releaseNotSpinning=" + C_RELEASE_NOT_SPINNING + " tookScheduled=" + C_TAKE_SCHED + "\n";
                try {
                    java.nio.file.Files.writeString(java.nio.file.Path.of(f), line, java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
                } catch (java.io.IOException e) {
                    // best effort
                }
            }));
        }
    }

    static final int COUNT_MASK = (1 << 28) - 1;
    static final int RUNNING = 1 << 28;
    static final int SCHEDULED = 1 << 29;
    static final int CLOSED = 1 << 30;
    static final long ABORTED = 1L << 31;
    /** The queue has a chunk: set by the reservation that creates it, cleared by the give-up that drops it. */
    static final long CHUNKED = 1L << 32;
    /** The sequence of queued reservations since the queue last had no chunk: the top 31 bits. */
    static final int SEQUENCE_SHIFT = 33;
    static final long SEQUENCE_ONE = 1L << SEQUENCE_SHIFT;
    /** The count and the four flags: what is left of the state when the queue is given up empty. */
    static final long COUNT_AND_FLAGS = (1L << 32) - 1;
    /**
     * Fewer callbacks than this waiting, after a drain has run some, means it is right behind a producer
     * (see "Stepping back from a producer"); also how many it must run before it steps back again.
     */
    static final int TAILING_RUN = 8;

    private static final VarHandle STATE;
    private static final VarHandle OWNER;
    private static final VarHandle PROGRESS;
    private static final VarHandle UNHANDLED;
    private static final VarHandle BLOCKED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(SyncContext.class, "state", long.class);
            OWNER = lookup.findVarHandle(OwnerSide.class, "owner", Thread.class);
            PROGRESS = lookup.findVarHandle(OwnerSide.class, "progress", int.class);
            UNHANDLED = lookup.findVarHandle(SyncContext.class, "unhandledCount", long.class);
            BLOCKED = lookup.findVarHandle(SyncContext.class, "blockedCount", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final String name;
    final ContextSettings settings;

    private volatile long state;
    /** Null until the first close, closeNow or awaitTermination; see {@link Termination#of}. */
    @SuppressWarnings("unused") // Accessed through Termination's VarHandle.
    @Nullable Termination termination;
    @SuppressWarnings("unused") // Accessed through UNHANDLED.
    private long unhandledCount;
    @SuppressWarnings("unused") // Accessed through BLOCKED.
    private long blockedCount;

    SyncContext(String name, ContextSettings settings) {
        this.name = name;
        this.settings = settings;
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
                C_QUEUED.increment();
                return node;
            }
        }
    }

    /** Runs a callback that claimed the idle context, on the caller's thread. */
    private <T> CompletableFuture<T> invokeInline(Object callback, Invocation how, Thread caller) {
        C_INLINE.increment();
        OWNER.setOpaque(this, caller);
        try {
            return CallbackRunner.invoke(this, callback, how, CallbackPath.INLINE);
        } finally {
            OWNER.setOpaque(this, null);
            releaseFromCaller();
        }
    }

    // ---------------------------------------------------------------- post / execute

    @Override
    public void post(Runnable callback) {
        Objects.requireNonNull(callback, "callback");
        Object item = queuedItem(callback);
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

    /** What a post puts into its slot: the runnable itself; a node only for a post chosen for timing. */
    private Object queuedItem(Runnable callback) {
        ContextSettings settings = this.settings;
        CallbackDecorator decorator = settings.decorator;
        Object item = decorator == null ? callback : decorator.decorate(callback);
        if (settings.samplingMask >= 0) {
            item = CallbackRunner.sampledPost(settings.samplingMask, (Runnable) item);
        }
        return item;
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
        Object item = queuedItem(last);
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

    /**
     * The state after a queued reservation: one more callback counted, the next index of the sequence
     * taken, and the queue marked as having a chunk (the reservation that sets that mark creates it). A
     * reservation is the order point of the queue: a {@code closeNow()} that comes after it finds its
     * index below the sequence it reads, and claims the slot once it is written; a reservation after
     * closeNow() fails, as the state is closed.
     */
    private static long reserved(long s) {
        return (s + 1 + SEQUENCE_ONE) | CHUNKED;
    }

    /** The index a reservation on state {@code s} took. */
    private static int index(long s) {
        return (int) (s >>> SEQUENCE_SHIFT);
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
        awaitTurn(node); // returns owning the context, or throws why the callback will not run
        if ((state & ABORTED) != 0) {
            // closeNow() came between the hand-off and this thread waking up: it returned, so
            // nothing may start now. This thread owns the context; it only gives it back.
            releaseFromCaller();
            CallbackRunner.observe(this, CallbackPath.SEND, CallbackOutcome.CANCELLED);
            throw Refusals.closedNowAtTurn(name);
        }
        runSendAsOwner(callback, caller);
    }

    /**
     * Parks a queued sender until its turn, unless that turn could never come (a deadlock,
     * {@link WaitGraph}): then it withdraws and throws, and the drain counts the send as finished.
     */
    private void awaitTurn(QueuedSend node) {
        WaitGraph.Wait wait = WaitGraph.enter(node);
        try {
            ContextDeadlockException deadlock = wait == null ? null : WaitGraph.deadlock(wait);
            if (deadlock != null && node.withdraw()) {
                throw deadlock;
            }
            node.awaitHandOff(name);
        } finally {
            WaitGraph.leave(wait);
        }
    }

    /** The sender owns the context (claimed it idle, or was handed it): run, then release. */
    private void runSendAsOwner(Runnable callback, Thread caller) {
        OWNER.setOpaque(this, caller);
        Throwable failure;
        try {
            failure = CallbackRunner.runOnCaller(this, callback, CallbackPath.SEND);
        } finally {
            OWNER.setOpaque(this, null);
            releaseFromCaller();
        }
        CallbackRunner.rethrow(failure);
    }

    // ---------------------------------------------------------------- ownership hand-over

    /**
     * Gives up the ownership a caller thread held for its own callback. Never runs anyone else's
     * callback here: if work queued up meanwhile, it goes to the thread waiting for the next call, when one
     * offers to run it ({@link #handToWaiter}), otherwise to a drain on the executor.
     */
    private void releaseFromCaller() {
        if (STATE.compareAndSet(this, (long) (1 + RUNNING), 0L)) {
            return; // the common case: open, and nothing queued up meanwhile
        }
        for (;;) {
            long s = state;
            long count = s & COUNT_MASK;
            if ((s & ABORTED) != 0) {
                leaveAborted(1); // closeNow() aborts what is queued; never touch the queue now
                return;
            } else if (count == 1) {
                // A sender handed the context by a drain may find the queue empty but with its chunk.
                if (giveUpEmpty(s, 1)) {
                    return;
                }
            } else if (handToWaiter()) {
                return;
            } else if (STATE.compareAndSet(this, s, s - 1 - RUNNING + SCHEDULED)) {
                scheduleDrain();
                return;
            }
        }
    }

    /**
     * An owner releasing after its own callback, with work queued behind it: if the next index holds a call
     * whose caller spins in a wait for it (QueuedFuture, "A waiting caller runs its own turn"), gives that
     * caller the context, the call left in the queue for it to take. The owner's own callback is given back
     * first, so the count the waiter finds is the queue's; the context stays {@code RUNNING} throughout.
     * Called with the token cleared. False (nothing changed) if the next call is not written yet, is not a
     * call, or nobody spins for it.
     */
    private boolean handToWaiter() {
        Object peeked = peekWritten();
        if (!(peeked instanceof QueuedFuture<?> call)) {
            C_RELEASE_PEEK_MISS.increment();
            return false;
        }
        if (!call.reserveTurn()) {
            for (int i = 0; i < RELEASE_WAIT && call.turnState() == QueuedFuture.NOT_WAITING && !call.isDone(); i++) {
                Thread.onSpinWait();
            }
            if (!call.reserveTurn()) {
                C_RELEASE_NOT_SPINNING.increment();
                return false;
            }
        }
        STATE.getAndAdd(this, -1L);
        call.handTurn(false);
        return true;
    }

    /**
     * A drain took {@code call} and its caller spins in a wait for it: gives back the {@code done} callbacks,
     * then the context to that caller, who runs the call ({@link #runHandedTurn}). The token is cleared
     * before the hand-off, as in {@link #handOffToSender}.
     *
     * @return true if the caller owns the context now; false if nobody spins for it (nothing changed: the
     *     drain runs it)
     */
    boolean handOffToWaiter(QueuedFuture<?> call, int done, Thread self) {
        if (!call.reserveTurn()) {
            return false;
        }
        OWNER.setOpaque(this, null);
        PROGRESS.setOpaque(this, 0);
        if (done > 0) {
            STATE.getAndAdd(this, (long) -done);
        }
        call.handTurn(true);
        return true;
    }

    /**
     * The waiting caller of {@code call} was handed the context ({@link #handToWaiter} with {@code taken}
     * false: the call is at the queue's head; {@link #handOffToWaiter}: taken): runs the call on this thread
     * as the owner, then releases as an inline caller does. If {@code closeNow()} came meanwhile, nothing
     * starts: a call it claimed is its to fail; one taken already fails here, as a send handed its turn does.
     */
    /** A waiter spinning for {@code call}: takes over a drain handed to the executor and not started, if its call is next. */
    static final int RELEASE_WAIT = Integer.getInteger("probe.releaseWait", 0);

    boolean takeScheduledTurn(QueuedFuture<?> call) {
        long s = state;
        if ((s & (SCHEDULED | ABORTED)) != SCHEDULED || peekWritten() != call
                || !STATE.compareAndSet(this, s, s - SCHEDULED + RUNNING)) {
            return false;
        }
        C_TAKE_SCHED.increment();
        runHandedTurn(call, false);
        return true;
    }

    void runHandedTurn(QueuedFuture<?> call, boolean taken) {
        (taken ? C_HT : C_HU).increment();
        if ((state & ABORTED) != 0) {
            if (taken) {
                CallbackRunner.abortQueued(call, Refusals.callClosedNowAtTurn(name));
                CallbackRunner.observe(this, CallbackPath.QUEUED, CallbackOutcome.CANCELLED);
                leaveAborted(1);
            } else {
                leaveAborted(0); // closeNow()'s walk claims the call and counts it off
            }
            return;
        }
        Object item = taken ? call : takeNext();
        if (item == QueueChunk.TAKEN) {
            leaveAborted(0); // closeNow() claimed it between the hand-off and this take, and counted it off
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
            releaseFromCaller();
        }
    }

    private void scheduleDrain() {
        C_SCHED.increment();
        try {
            settings.executor.execute(this);
        } catch (Throwable refused) {
            drainRefused(refused);
        }
    }

    /** The drain task. Only ever given to the executor, with {@code SCHEDULED} set. */
    @Override
    public void run() {
        if (takeOverScheduled()) {
            C_DRAINS.increment();
            Drain.run(this);
        } // else closeNow() took the queue over before this drain started
    }

    /**
     * Takes the drain over from {@code SCHEDULED}: the ownership it was handed with becomes this
     * thread's ({@code RUNNING}). False if closeNow() took the queue over first; nothing to do then.
     */
    private boolean takeOverScheduled() {
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
    boolean abortOrRelease(long s, int done, Thread self) {
        OWNER.setOpaque(this, null);
        PROGRESS.setOpaque(this, 0);
        if ((s & ABORTED) != 0) {
            leaveAborted(done);
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
     * on the executor ({@link #resubmitOrReclaim} hands it over). The token is cleared before the CAS.
     *
     * @return true if given up; false if the state moved meanwhile and the owner must look again, token
     *     and progress restored
     */
    boolean yieldAfterBatch(long s, int done, Thread self) {
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
     * {@link #handOffToSender}, so {@link #queueDepth()} may read too many for a moment, never too few.
     *
     * @return the finished callbacks still counted: 1
     */
    int giveBackFinished(int done) {
        PROGRESS.setOpaque(this, 1);
        STATE.getAndAdd(this, (long) (1 - done));
        return 1;
    }

    /** After a full batch: true if the executor took the next drain (or closeNow() the queue). */
    boolean resubmitOrReclaim() {
        try {
            settings.executor.execute(this);
            return true;
        } catch (Throwable refused) {
            // We are already on an executor thread, so keep draining here rather than fail the work;
            // unless closeNow() took the queue over in the meantime.
            return !takeOverScheduled();
        }
    }

    /**
     * The drain claimed a send: gives back the {@code done} callbacks, then the context to the sender's
     * thread. The token is cleared before the hand-off.
     *
     * @return true if the sender owns the context now; false if it withdrew (interrupted) and this
     *     drain owns the context still, token restored and nothing left to give back
     */
    boolean handOffToSender(QueuedSend send, int done, Thread self) {
        OWNER.setOpaque(this, null);
        PROGRESS.setOpaque(this, 0);
        if (done > 0) {
            STATE.getAndAdd(this, (long) -done);
        }
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
    private void drainRefused(Throwable cause) {
        if (takeOverScheduled()) {
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
    private void leaveAborted(int finished) {
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

    // ---------------------------------------------------------------- admission

    /** Why a new callback cannot be accepted in state {@code s}, or null if it can; allocates only to refuse. */
    private @Nullable RejectedExecutionException refusal(long s) {
        if ((s & CLOSED) != 0) {
            return Refusals.closed(name, Termination.of(this));
        }
        int max = settings.maxQueueDepth;
        if (max > 0 && queued(s) >= max) {
            return new RejectedExecutionException(Refusals.full(name, max));
        }
        return null;
    }

    private int queued(long s) {
        int running = (s & RUNNING) != 0 ? 1 : 0;
        return (int) (s & COUNT_MASK) - running - (int) PROGRESS.getOpaque(this);
    }

    // ---------------------------------------------------------------- counters

    /** A posted callback failed; see {@link CallbackRunner#reportUnhandled}. */
    void countUnhandled() {
        UNHANDLED.getAndAdd(this, 1L);
    }

    void countBlocked() {
        BLOCKED.getAndAdd(this, 1L);
    }

    // ---------------------------------------------------------------- queries

    /** The owner token, read volatile: for {@link WaitGraph}, which follows owners across contexts. */
    @Nullable Thread ownerVolatile() {
        return (Thread) OWNER.getVolatile(this);
    }

    /** The state word, read volatile: for the owner's loop ({@link Drain}), which never writes it. */
    long stateVolatile() {
        return state;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean checkAccess() {
        return OWNER.getOpaque(this) == Thread.currentThread();
    }

    @Override
    public void assertAccess() {
        if (!checkAccess()) {
            throw new IllegalStateException("The current thread '" + Thread.currentThread().getName()
                    + "' is not running a callback of context '" + name + "'. State owned by the context"
                    + " may only be touched from inside it: use invokeAsync(...) (or post/send) to get there.");
        }
    }

    @Override
    public int queueDepth() {
        return Math.max(0, queued(state));
    }

    @Override
    public long unhandledExceptionCount() {
        return (long) UNHANDLED.getOpaque(this);
    }

    @Override
    public long blockedCallbackCount() {
        return (long) BLOCKED.getOpaque(this);
    }

    @Override
    public boolean isClosed() {
        return (state & CLOSED) != 0;
    }

    @Override
    public String toString() {
        long s = state;
        return "RendererSyncContext[" + name + ", queueDepth=" + Math.max(0, queued(s))
                + ((s & CLOSED) != 0 ? ", closed" : "") + "]";
    }
}
