package dev.synccontext;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The one implementation of {@link RendererSyncContext}.
 *
 * <h2>How it works</h2>
 * One {@code int} word, {@link #state}, carries everything that decides who may run what: the
 * <em>count</em> of callbacks accepted and not yet finished (low 28 bits) and four flags. Whoever
 * moves the count from 0 to 1 <em>owns</em> the context and answers for every callback until the
 * count is back to 0. Ownership is always in exactly one of two places, told by the flags:
 * <ul>
 *   <li>{@code RUNNING}: a thread holds it: an inline caller, a {@code send}er, or a drain.</li>
 *   <li>{@code SCHEDULED}: a drain was handed to the executor and has not started yet.</li>
 * </ul>
 * {@code CLOSED} makes every later reservation fail; {@code ABORTED} (with {@code CLOSED}) asks the
 * owner to abort what is queued instead of running it.
 *
 * <p>Idle {@code invokeAsync}: one CAS (count 0 → 1, {@code RUNNING}), run the callback on the caller's
 * thread, one CAS back to 0. No allocation on success. If callbacks queued up meanwhile, the release
 * CAS swaps {@code RUNNING} for {@code SCHEDULED} and hands a drain to the executor: the caller never
 * runs other callers' work. Busy submissions reserve with a CAS (count + 1) and then link their node
 * into the intrusive multi-producer single-consumer queue this class inherits ({@link CallbackQueue}:
 * one atomic exchange to link, none to take). The node is the returned future itself, so a queued call
 * allocates one object. This is the shape of Blazor's 2023 rework of
 * {@code RendererSynchronizationContext} (dotnet/aspnetcore, "Reduce allocations in
 * RendererSynchronizationContext"): inline when idle, the returned task doubling as the queue entry.
 *
 * <p>Because reservations happen before linking, the owner knows how many nodes exist (or are about
 * to): a drain takes {@code count} nodes, waiting a few spins for a producer that reserved but has
 * not linked yet. It subtracts what it finished in one CAS when it runs dry, rather than per
 * callback, and publishes that progress in {@link OwnerSide#progress} so {@link #queueDepth()} stays right.
 *
 * <h2>Stepping back from a producer</h2>
 * A drain that catches up with a producer (it finds fewer than {@value #TAILING_RUN} callbacks waiting
 * and the next one was not linked yet when it looked: the producer is between its reservation and its
 * link) would otherwise follow right behind it, taking each node as it is linked, and the context's
 * state word and each node's cache line would move between the two CPUs with every post. On the
 * default executor it steps back instead ({@link ElasticExecutor#stepBack}: a bounded spin that writes
 * nothing shared, skipped while other tasks are queued), so that its next run is a batch. That is the
 * same as one callback having taken a little longer: ownership, order and the count do not change.
 * It happens again only after the drain has run {@value #TAILING_RUN} more callbacks, so a producer
 * that is merely slow costs at most one step back per drain.
 *
 * <h2>Force-close without waiting</h2>
 * {@link #closeNow()} never waits for the owner. Every node is claimed exactly once, by one atomic
 * exchange on its callback field ({@link QueuedCallback#claim}): by the owner to run it, by closeNow()
 * to abort it. closeNow() marks the context {@code ABORTED}, then walks the queue from the owner's head
 * to the tail without owning the context ({@link CallbackQueue#visitQueued}) and subtracts what it
 * aborted from the count. A producer that swaps its node in after closeNow() read the tail sees the
 * mark before it links the node and aborts the node itself ({@link #enqueueUnlessForceClosed}), so
 * every node the owner can still claim is one closeNow() visits: once closeNow() has returned, the
 * owner finds every node claimed, and nothing starts but the callback it had already claimed. When
 * the owner next looks at the state it gives back what it finished and leaves the queue alone.
 * Whoever brings the count to zero completes the termination.
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
 */
final class SyncContext extends CallbackQueue implements RendererSyncContext, Runnable {

    static final int COUNT_MASK = (1 << 28) - 1;
    static final int RUNNING = 1 << 28;
    static final int SCHEDULED = 1 << 29;
    static final int CLOSED = 1 << 30;
    static final int ABORTED = 1 << 31;
    /**
     * Fewer callbacks than this waiting, after a drain has run some, means it is right behind a producer
     * (see "Stepping back from a producer"); also how many it must run before it steps back again.
     */
    static final int TAILING_RUN = 8;

    private static final System.Logger LOG = System.getLogger(RendererSyncContext.class.getName());

    private static final VarHandle STATE;
    private static final VarHandle OWNER;
    private static final VarHandle PROGRESS;
    private static final VarHandle TERMINATION;
    private static final VarHandle UNHANDLED;
    private static final VarHandle BLOCKED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(SyncContext.class, "state", int.class);
            OWNER = lookup.findVarHandle(OwnerSide.class, "owner", Thread.class);
            PROGRESS = lookup.findVarHandle(OwnerSide.class, "progress", int.class);
            TERMINATION = lookup.findVarHandle(SyncContext.class, "termination", Termination.class);
            UNHANDLED = lookup.findVarHandle(SyncContext.class, "unhandledCount", long.class);
            BLOCKED = lookup.findVarHandle(SyncContext.class, "blockedCount", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final String name;
    final ContextSettings settings;

    private volatile int state;
    @SuppressWarnings("unused") // Accessed through TERMINATION.
    private Termination termination;
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
        if (STATE.compareAndSet(this, 0, 1 + RUNNING)) {
            return invokeInline(callback, Invocation.RUNNABLE, Thread.currentThread());
        }
        return submit(callback, Invocation.RUNNABLE);
    }

    @Override
    public <T> CompletableFuture<T> invokeAsync(Callable<T> callback) {
        Objects.requireNonNull(callback, "callback");
        if (STATE.compareAndSet(this, 0, 1 + RUNNING)) {
            return invokeInline(callback, Invocation.CALLABLE, Thread.currentThread());
        }
        return submit(callback, Invocation.CALLABLE);
    }

    @Override
    public <T> CompletableFuture<T> invokeAsyncStage(Callable<? extends CompletionStage<T>> callback) {
        Objects.requireNonNull(callback, "callback");
        if (STATE.compareAndSet(this, 0, 1 + RUNNING)) {
            return invokeInline(callback, Invocation.STAGE, Thread.currentThread());
        }
        return submit(callback, Invocation.STAGE);
    }

    private <T> CompletableFuture<T> submit(Object callback, int kind) {
        Thread caller = Thread.currentThread();
        if (OWNER.getOpaque(this) == caller) {
            return invokeNested(callback, kind);
        }
        QueuedFuture<T> node = null;
        for (;;) {
            int s = state;
            if ((s & (COUNT_MASK | CLOSED)) == 0) {
                if (STATE.compareAndSet(this, s, s + 1 + RUNNING)) {
                    return invokeInline(callback, kind, caller);
                }
                continue;
            }
            String refusal = refusal(s);
            if (refusal != null) {
                observe(CallbackPath.QUEUED, CallbackOutcome.REJECTED);
                return CompletableFuture.failedFuture(new RejectedExecutionException(refusal));
            }
            if (node == null) {
                try {
                    node = newQueuedFuture(callback, kind);
                } catch (Throwable decoratorFailure) {
                    return CompletableFuture.failedFuture(decoratorFailure);
                }
            }
            if (STATE.compareAndSet(this, s, s + 1)) {
                enqueueUnlessForceClosed(node); // if closeNow() began meanwhile, the node comes back cancelled
                return node;
            }
        }
    }

    @SuppressWarnings("unchecked")
    private <T> QueuedFuture<T> newQueuedFuture(Object callback, int kind) {
        CallbackDecorator decorator = settings.decorator;
        QueuedFuture<T> node;
        switch (kind) {
            case Invocation.RUNNABLE:
                Runnable r = (Runnable) callback;
                node = (QueuedFuture<T>) new QueuedRunnable(this, decorator == null ? r : decorator.decorate(r));
                break;
            case Invocation.CALLABLE:
                Callable<T> c = (Callable<T>) callback;
                node = new QueuedCallable<>(this, decorator == null ? c : decorator.decorate(c));
                break;
            default:
                Callable<? extends CompletionStage<T>> sc = (Callable<? extends CompletionStage<T>>) callback;
                node = new QueuedStage<>(this, decorator == null ? sc : decorator.decorate(sc));
        }
        markSample(node);
        return node;
    }

    /** Runs a callback that claimed the idle context, on the caller's thread. */
    private <T> CompletableFuture<T> invokeInline(Object callback, int kind, Thread caller) {
        CallbackFrame frame = CallbackFrame.get();
        SyncContext outer = frame.enter(this);
        OWNER.setOpaque(this, caller);
        try {
            return settings.observer == null ? Invocation.call(callback, kind)
                    : invokeObserved(callback, kind, CallbackPath.INLINE, frame);
        } finally {
            OWNER.setOpaque(this, null);
            frame.context = outer;
            releaseFromCaller();
        }
    }

    /** Runs a callback called from inside this context, now, as a plain method call. */
    private <T> CompletableFuture<T> invokeNested(Object callback, int kind) {
        CallbackFrame frame = CallbackFrame.get();
        SyncContext outer = frame.enter(this);
        try {
            return settings.observer == null ? Invocation.call(callback, kind)
                    : invokeObserved(callback, kind, CallbackPath.NESTED, frame);
        } finally {
            frame.context = outer;
        }
    }

    private <T> CompletableFuture<T> invokeObserved(Object callback, int kind, CallbackPath path, CallbackFrame frame) {
        if (!frame.sampleNext(settings.samplingMask)) {
            CompletableFuture<T> result = Invocation.call(callback, kind);
            observe(path, Invocation.outcome(result));
            return result;
        }
        long allocatedBefore = AllocationProbe.currentThreadAllocatedBytes();
        long start = System.nanoTime();
        CompletableFuture<T> result = Invocation.call(callback, kind);
        sampled(path, 0, System.nanoTime() - start, allocatedBefore);
        observe(path, Invocation.outcome(result));
        return result;
    }

    // ---------------------------------------------------------------- post / execute

    @Override
    public void post(Runnable callback) {
        Objects.requireNonNull(callback, "callback");
        CallbackDecorator decorator = settings.decorator;
        QueuedPost node = new QueuedPost(decorator == null ? callback : decorator.decorate(callback));
        markSample(node);
        for (;;) {
            int s = state;
            String refusal = refusal(s);
            if (refusal != null) {
                observe(CallbackPath.QUEUED, CallbackOutcome.REJECTED);
                throw new RejectedExecutionException(refusal);
            }
            if ((s & COUNT_MASK) == 0) {
                if (STATE.compareAndSet(this, s, s + 1 + SCHEDULED)) {
                    if (!enqueueUnlessForceClosed(node)) {
                        throw rejectedAsForceClosed();
                    }
                    scheduleDrain();
                    return;
                }
            } else if (STATE.compareAndSet(this, s, s + 1)) {
                if (!enqueueUnlessForceClosed(node)) {
                    throw rejectedAsForceClosed();
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
     * Queues a node whose reservation is counted: swaps it in as the tail and links it, unless
     * {@code closeNow()} began in between. A closeNow() that read the tail before the swap walks up
     * to this node and claims it there (or finds it claimed by the owner). One that read the tail
     * after the swap had marked the context force-closed before, and as both the swap and that mark
     * are sequentially consistent, this thread sees the mark: it then takes the callback before
     * linking the node (nobody else can reach it yet), links the node empty so that the queue stays
     * whole, and aborts it. So the owner never needs to look at the state before it runs a node: a
     * node it can claim was either linked before closeNow() began or is one closeNow() visits.
     *
     * @return true if queued; false if force-closed meanwhile (the node's future or sender has
     *     learned why, and its reservation is given back)
     */
    private boolean enqueueUnlessForceClosed(QueuedCallback<?> node) {
        QueuedCallback<?> previous = swapTail(node);
        if ((state & ABORTED) == 0) {
            link(previous, node);
            return true;
        }
        Object callback = node.takeUnlinked();
        link(previous, node);
        node.abort(callback, new CancellationException(
                "Context '" + name + "' was closed with closeNow() before this callback started"));
        observe(node instanceof QueuedSend ? CallbackPath.SEND : CallbackPath.QUEUED, CallbackOutcome.CANCELLED);
        terminateIfDone((int) STATE.getAndAdd(this, -1) - 1);
        return false;
    }

    private RejectedExecutionException rejectedAsForceClosed() {
        return new RejectedExecutionException("Context '" + name + "' was closed with closeNow() while this"
                + " callback was being queued; it did not run");
    }

    // ---------------------------------------------------------------- send

    @Override
    public void send(Runnable callback) {
        Objects.requireNonNull(callback, "callback");
        Thread caller = Thread.currentThread();
        if (OWNER.getOpaque(this) == caller) {
            rethrow(runOnCaller(callback, CallbackPath.NESTED));
            return;
        }
        QueuedSend node = null;
        for (;;) {
            int s = state;
            if ((s & (COUNT_MASK | CLOSED)) == 0) {
                if (STATE.compareAndSet(this, s, s + 1 + RUNNING)) {
                    runSendAsOwner(callback, caller);
                    return;
                }
                continue;
            }
            String refusal = refusal(s);
            if (refusal != null) {
                observe(CallbackPath.SEND, CallbackOutcome.REJECTED);
                throw new RejectedExecutionException(refusal);
            }
            if (node == null) {
                node = new QueuedSend(callback, caller);
            }
            if (STATE.compareAndSet(this, s, s + 1)) {
                if (!enqueueUnlessForceClosed(node)) {
                    throw rejectedAsForceClosed();
                }
                break;
            }
        }
        switch (node.awaitTurn()) {
            case QueuedSend.HANDED_OFF:
                if ((state & ABORTED) != 0) {
                    // closeNow() came between the hand-off and this thread waking up: it returned, so
                    // nothing may start now. This thread owns the context; it only gives it back.
                    releaseFromCaller();
                    observe(CallbackPath.SEND, CallbackOutcome.CANCELLED);
                    throw new RejectedExecutionException("send to context '" + name + "' did not run: the"
                            + " context was closed with closeNow() as its turn came");
                }
                runSendAsOwner(callback, caller);
                return;
            case QueuedSend.FAILED:
                Throwable reason = node.failure();
                throw new RejectedExecutionException("send to context '" + name + "' did not run: "
                        + reason.getMessage(), reason);
            default:
                throw new CancellationException("send to context '" + name + "' was interrupted while"
                        + " waiting for its turn; the callback did not run");
        }
    }

    /** The sender owns the context (claimed it idle, or was handed it): run, then release. */
    private void runSendAsOwner(Runnable callback, Thread caller) {
        OWNER.setOpaque(this, caller);
        Throwable failure;
        try {
            failure = runOnCaller(callback, CallbackPath.SEND);
        } finally {
            OWNER.setOpaque(this, null);
            releaseFromCaller();
        }
        rethrow(failure);
    }

    /** Runs a {@code send} callback on the caller's thread, inside the context; returns its failure. */
    private Throwable runOnCaller(Runnable callback, CallbackPath path) {
        CallbackFrame frame = CallbackFrame.get();
        SyncContext outer = frame.enter(this);
        try {
            if (settings.observer == null) {
                try {
                    callback.run();
                    return null;
                } catch (Throwable failure) {
                    return failure;
                }
            }
            boolean sample = frame.sampleNext(settings.samplingMask);
            long allocatedBefore = sample ? AllocationProbe.currentThreadAllocatedBytes() : 0;
            long start = sample ? System.nanoTime() : 0;
            Throwable failure = null;
            try {
                callback.run();
            } catch (Throwable thrown) {
                failure = thrown;
            }
            if (sample) {
                sampled(path, 0, System.nanoTime() - start, allocatedBefore);
            }
            observe(path, failure == null ? CallbackOutcome.SUCCESS : Outcomes.of(failure));
            return failure;
        } finally {
            frame.context = outer;
        }
    }

    private static void rethrow(Throwable failure) {
        if (failure == null) {
            return;
        }
        if (failure instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (failure instanceof Error error) {
            throw error;
        }
        throw new CompletionException(failure);
    }

    // ---------------------------------------------------------------- ownership hand-over

    /**
     * Gives up the ownership a caller thread held for its own callback. Never runs anyone else's
     * callback here: if work queued up meanwhile, it goes to a drain on the executor.
     */
    private void releaseFromCaller() {
        if (STATE.compareAndSet(this, 1 + RUNNING, 0)) {
            return; // the common case: open, and nothing queued up meanwhile
        }
        for (;;) {
            int s = state;
            int count = s & COUNT_MASK;
            if ((s & ABORTED) != 0) {
                leaveAborted(1); // closeNow() aborts what is queued; never touch the queue now
                return;
            } else if (count == 1) {
                int released = s - 1 - RUNNING;
                if (STATE.compareAndSet(this, s, released)) {
                    terminateIfDone(released);
                    return;
                }
            } else if (STATE.compareAndSet(this, s, s - 1 - RUNNING + SCHEDULED)) {
                scheduleDrain();
                return;
            }
        }
    }

    private void scheduleDrain() {
        try {
            settings.executor.execute(this);
        } catch (Throwable refused) {
            drainRefused(refused);
        }
    }

    /** The drain task. Only ever given to the executor, with {@code SCHEDULED} set. */
    @Override
    public void run() {
        int s;
        do {
            s = state;
            if ((s & SCHEDULED) == 0) {
                return; // closeNow() took the queue over before this drain started
            }
        } while (!STATE.compareAndSet(this, s, s - SCHEDULED + RUNNING));
        drain();
    }

    /**
     * Runs the queue as its owner. It reads the state once per run of the nodes it counted there (at
     * most {@code maxBatch}), and takes those nodes with a local cursor, publishing its position before
     * it reads the state again; a node already linked behind the last one it took is taken without that
     * read (it was reserved before it was linked), within the same {@code maxBatch}. So while producers
     * keep changing the state, a run of callbacks does not touch the context's fields but for the
     * progress count, and a drain running its own callbacks' posts ({@code PostSerial}) does not read the
     * state between them. Nor does it read the settings field per callback: it shares the line every
     * post writes, so the observer and {@code maxBatch} are read once per drain (see {@link #runQueued}).
     * Whether closeNow() began needs no look per callback: each node is claimed, and closeNow() claims
     * every node it may return. Right behind a producer it steps back (see the class Javadoc) before it
     * reads the state again.
     */
    private void drain() {
        Thread self = Thread.currentThread();
        CallbackFrame frame = CallbackFrame.get();
        SyncContext outer = frame.context;
        frame.context = this;
        OWNER.setOpaque(this, self);
        SyncContextObserver observer = settings.observer;
        int maxBatch = settings.maxBatch;
        int budget = maxBatch;
        int done = 0;
        QueuedCallback<?> cursor = lastTaken();
        int counted = 0; // nodes counted in the last state read and not yet taken
        boolean ran = false; // whether the last node taken was claimed here (not aborted by closeNow())
        int sinceStepBack = TAILING_RUN; // nodes taken since this drain last stepped back
        try {
            for (;;) {
                if (counted == 0 && ran && budget > 0 && cursor != null && cursor.nextAcquire() != null) {
                    // A linked node was reserved before it was linked, so the count already holds it: take
                    // it without a look at the state word, which producers keep writing. The run grows by
                    // one, still within maxBatch (closeNow()'s walk copes with a head one run stale).
                    counted = 1;
                }
                if (counted == 0) {
                    publishTaken(cursor);
                    int s = state;
                    if ((s & ABORTED) != 0 || (s & COUNT_MASK) == done) {
                        if (abortOrRelease(s, done, self)) {
                            return;
                        }
                        cursor = lastTaken(); // it may have dropped the dummy and a producer published a new head
                        continue; // the state moved meanwhile
                    }
                    if (budget == 0) {
                        // Fairness: give the pool thread back and queue the rest of the work behind others.
                        OWNER.setOpaque(this, null);
                        PROGRESS.setOpaque(this, 0);
                        if (!STATE.compareAndSet(this, s, s - done - RUNNING + SCHEDULED)) {
                            OWNER.setOpaque(this, self);
                            PROGRESS.setOpaque(this, done);
                            continue;
                        }
                        done = 0;
                        if (resubmitOrReclaim()) {
                            return;
                        }
                        OWNER.setOpaque(this, self);
                        budget = maxBatch;
                        continue;
                    }
                    // The count is what this drain finished plus what is queued: nodes it may take now.
                    int waiting = (s & COUNT_MASK) - done;
                    counted = Math.min(waiting, budget);
                    if (waiting < TAILING_RUN && ran && sinceStepBack >= TAILING_RUN && stepBack()) {
                        // Right behind a producer: it got ahead meanwhile, so look again (the next run
                        // is a batch, taken by following links, or after one more read of the state).
                        sinceStepBack = 0;
                        counted = 0;
                        continue;
                    }
                }
                QueuedCallback<?> node = takeAfter(cursor);
                cursor = node;
                counted--;
                sinceStepBack++;
                budget--;
                Object callback = node.claim();
                ran = callback != null;
                if (!ran) {
                    counted = 0; // closeNow() (or its producer, racing it) aborted it: the next check leaves
                    continue;
                }
                if (node instanceof QueuedSend send) {
                    publishTaken(cursor);
                    counted = 0;
                    OWNER.setOpaque(this, null);
                    PROGRESS.setOpaque(this, 0);
                    if (done > 0) {
                        STATE.getAndAdd(this, -done);
                        done = 0;
                    }
                    if (send.handOff()) {
                        return; // the sender owns the context now, its own callback still counted
                    }
                    OWNER.setOpaque(this, self); // the sender withdrew (interrupted): it counts as done
                    observe(CallbackPath.SEND, CallbackOutcome.CANCELLED);
                } else {
                    runQueued(node, callback, frame, observer);
                }
                done++;
                PROGRESS.setOpaque(this, done);
            }
        } finally {
            frame.context = outer;
        }
    }

    /** See "Stepping back from a producer": only the default executor's pool spins for it. */
    private boolean stepBack() {
        return settings.drainPool != null && settings.drainPool.stepBack();
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
    private boolean abortOrRelease(int s, int done, Thread self) {
        OWNER.setOpaque(this, null);
        PROGRESS.setOpaque(this, 0);
        if ((s & ABORTED) != 0) {
            leaveAborted(done);
            return true;
        }
        if (forgetTakenNodes()) {
            int released = s - done - RUNNING;
            if (STATE.compareAndSet(this, s, released)) {
                terminateIfDone(released);
                return true;
            }
        }
        OWNER.setOpaque(this, self);
        PROGRESS.setOpaque(this, done);
        return false;
    }

    /** After a full batch: true if the executor took the next drain. */
    private boolean resubmitOrReclaim() {
        try {
            settings.executor.execute(this);
            return true;
        } catch (Throwable refused) {
            // We are already on an executor thread, so keep draining here rather than fail the work;
            // unless closeNow() took the queue over in the meantime.
            int s;
            do {
                s = state;
                if ((s & SCHEDULED) == 0) {
                    return true;
                }
            } while (!STATE.compareAndSet(this, s, s - SCHEDULED + RUNNING));
            return false;
        }
    }

    /**
     * Runs one queued callback for the drain, with the observer the drain read once: the context's
     * {@code settings} field shares a cache line with the state word and the tail for most places the
     * object can land at (depending on its address modulo 64), and a read of it per callback took that
     * line from a producer posting meanwhile, and the producer took it back with its next post.
     * Measured: {@code PostConcurrent} ran at ~51 ns per post in every fork where the object landed so
     * (5 of 8 alignments on Java 17, 7 of 8 on Java 25), ~29 ns in the others (bench/README.md, "The
     * settings read per callback").
     */
    private void runQueued(QueuedCallback<?> node, Object callback, CallbackFrame frame,
            SyncContextObserver observer) {
        frame.seq++;
        if (observer == null) {
            node.runQueued(this, callback);
            return;
        }
        int sampledAt = node.sampledAt;
        if (sampledAt == 0) {
            observe(observer, CallbackPath.QUEUED, node.runQueued(this, callback));
            return;
        }
        long waitNanos = SampleClock.nanosSince(sampledAt);
        long allocatedBefore = AllocationProbe.currentThreadAllocatedBytes();
        long start = System.nanoTime();
        CallbackOutcome outcome = node.runQueued(this, callback);
        sampled(observer, CallbackPath.QUEUED, waitNanos, System.nanoTime() - start, allocatedBefore);
        observe(observer, CallbackPath.QUEUED, outcome);
    }

    /**
     * The executor refused a drain that a caller thread tried to schedule. That thread may not run
     * other callers' callbacks, so it fails them instead, loudly: futures and senders with a
     * {@link RejectedExecutionException}, posts through the unhandled-exception handler. The context
     * stays open; the next submission tries the executor again.
     */
    private void drainRefused(Throwable cause) {
        int s;
        do {
            s = state;
            if ((s & SCHEDULED) == 0) {
                return; // closeNow() took the queue over
            }
        } while (!STATE.compareAndSet(this, s, s - SCHEDULED + RUNNING));
        // This thread owns the context now, so the handler and observer run inside it, as in a drain.
        // Without the token, a handler that calls closeNow() would wait for the owner: for itself.
        Thread self = Thread.currentThread();
        CallbackFrame frame = CallbackFrame.get();
        SyncContext outer = frame.context;
        frame.context = this;
        OWNER.setOpaque(this, self);
        int failed = 0;
        try {
            for (;;) {
                s = state;
                if ((s & ABORTED) != 0 || (s & COUNT_MASK) == failed) {
                    if (abortOrRelease(s, failed, self)) {
                        return;
                    }
                    continue; // the state moved meanwhile
                }
                QueuedCallback<?> node = poll();
                Object callback = node.claim();
                if (callback == null) {
                    continue; // closeNow() (or the producer, racing it) aborted it: the next check leaves
                }
                RejectedExecutionException rejection = new RejectedExecutionException("The executor of context '"
                        + name + "' refused to run its drain, so this queued callback cannot run: " + cause, cause);
                Runnable post = node.abort(callback, rejection);
                if (post != null) {
                    reportUnhandled(rejection);
                }
                observe(node instanceof QueuedSend ? CallbackPath.SEND : CallbackPath.QUEUED, CallbackOutcome.REJECTED);
                failed++;
                PROGRESS.setOpaque(this, failed); // so that closeNow() from the handler counts what is left
            }
        } finally {
            frame.context = outer;
        }
    }

    // ---------------------------------------------------------------- close

    @Override
    public void close() {
        Termination t = termination();
        int previous = (int) STATE.getAndBitwiseOr(this, CLOSED);
        if ((previous & COUNT_MASK) == 0) {
            t.terminated.complete(null);
        }
    }

    @Override
    public List<Runnable> closeNow() {
        Termination t = termination();
        int previous = (int) STATE.getAndBitwiseOr(this, CLOSED | ABORTED);
        Thread self = Thread.currentThread();
        if (t.aborting == self) {
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
        int s;
        while (((s = state) & SCHEDULED) != 0 && !STATE.compareAndSet(this, s, s - SCHEDULED)) {
            Thread.onSpinWait();
        }
        Abort abort = new Abort();
        t.aborting = self;
        try {
            visitQueued(abort);
        } finally {
            t.aborting = null;
        }
        if (abort.count > 0) {
            terminateIfDone((int) STATE.getAndAdd(this, -abort.count) - abort.count);
        }
        return abort.posts;
    }

    /** closeNow()'s visitor: claims and aborts each node no one else claimed; keeps the posts. */
    private final class Abort implements Consumer<QueuedCallback<?>> {

        final List<Runnable> posts = new ArrayList<>();
        int count;

        @Override
        public void accept(QueuedCallback<?> node) {
            Object callback = node.claim();
            if (callback == null) {
                return; // ran, runs, or was aborted by someone else
            }
            count++;
            Runnable post = node.abort(callback, new CancellationException(
                    "Context '" + name + "' was closed with closeNow() before this callback started"));
            if (post != null) {
                posts.add(post);
            }
            observe(node instanceof QueuedSend ? CallbackPath.SEND : CallbackPath.QUEUED, CallbackOutcome.CANCELLED);
        }
    }

    /**
     * The owner's exit from a force-closed context: gives back the {@code finished} callbacks still
     * counted and its ownership, without touching the queue (closeNow() aborts that).
     */
    private void leaveAborted(int finished) {
        terminateIfDone((int) STATE.getAndAdd(this, -finished - RUNNING) - finished - RUNNING);
    }

    private void terminateIfDone(int newState) {
        if ((newState & (COUNT_MASK | CLOSED)) == CLOSED) {
            termination().terminated.complete(null);
        }
    }

    @Override
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        Objects.requireNonNull(timeout, "timeout");
        Termination t = termination();
        if (t.terminated.isDone()) {
            return true;
        }
        if (checkAccess()) {
            throw new IllegalStateException("awaitTermination called from a callback of context '" + name
                    + "' would wait for that very callback to finish; call it from outside the context");
        }
        try {
            t.terminated.get(Math.max(0, toNanosSaturated(timeout)), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException notYet) {
            return false;
        } catch (ExecutionException impossible) {
            throw new IllegalStateException(impossible);
        }
    }

    private static long toNanosSaturated(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException tooLong) {
            return d.isNegative() ? 0 : Long.MAX_VALUE;
        }
    }

    private Termination termination() {
        Termination t = (Termination) TERMINATION.getAcquire(this);
        if (t != null) {
            return t;
        }
        Termination created = new Termination();
        Termination witness = (Termination) TERMINATION.compareAndExchange(this, null, created);
        return witness == null ? created : witness;
    }

    // ---------------------------------------------------------------- admission

    /** Why a new callback cannot be accepted in state {@code s}, or null if it can. */
    private String refusal(int s) {
        if ((s & CLOSED) != 0) {
            return "Context '" + name + "' is closed and accepts no new callbacks";
        }
        int max = settings.maxQueueDepth;
        if (max > 0 && queued(s) >= max) {
            return "Context '" + name + "' is full: " + max
                    + " callbacks are already waiting (maxQueueDepth = " + max + ")";
        }
        return null;
    }

    private int queued(int s) {
        int running = (s & RUNNING) != 0 ? 1 : 0;
        return (s & COUNT_MASK) - running - (int) PROGRESS.getOpaque(this);
    }

    private void markSample(QueuedCallback<?> node) {
        int mask = settings.samplingMask;
        if (mask >= 0 && (ThreadLocalRandom.current().nextInt() & mask) == 0) {
            node.sampledAt = SampleClock.now();
        }
    }

    // ---------------------------------------------------------------- observation and failures

    private void observe(CallbackPath path, CallbackOutcome outcome) {
        observe(settings.observer, path, outcome);
    }

    private void observe(SyncContextObserver observer, CallbackPath path, CallbackOutcome outcome) {
        if (observer != null) {
            try {
                observer.callbackFinished(this, path, outcome);
            } catch (Throwable failure) {
                LOG.log(System.Logger.Level.ERROR, "SyncContextObserver.callbackFinished threw", failure);
            }
        }
    }

    private void sampled(CallbackPath path, long waitNanos, long runNanos, long allocatedBefore) {
        sampled(settings.observer, path, waitNanos, runNanos, allocatedBefore);
    }

    private void sampled(SyncContextObserver observer, CallbackPath path, long waitNanos, long runNanos,
            long allocatedBefore) {
        long allocated = allocatedBefore < 0 ? -1
                : AllocationProbe.currentThreadAllocatedBytes() - allocatedBefore;
        try {
            observer.callbackSampled(this, path, waitNanos, runNanos, allocated);
        } catch (Throwable failure) {
            LOG.log(System.Logger.Level.ERROR, "SyncContextObserver.callbackSampled threw", failure);
        }
    }

    /** A posted callback failed: count it, tell the observer, then the handler. Never throws. */
    void reportUnhandled(Throwable failure) {
        UNHANDLED.getAndAdd(this, 1L);
        SyncContextObserver observer = settings.observer;
        if (observer != null) {
            try {
                observer.unhandledException(this, failure);
            } catch (Throwable observerFailure) {
                LOG.log(System.Logger.Level.ERROR, "SyncContextObserver.unhandledException threw",
                        observerFailure);
            }
        }
        try {
            if (settings.unhandledExceptionHandler != null) {
                settings.unhandledExceptionHandler.accept(this, failure);
            } else {
                LOG.log(System.Logger.Level.ERROR, "Unhandled exception in a callback posted to context '"
                        + name + "'", failure);
            }
        } catch (Throwable handlerFailure) {
            LOG.log(System.Logger.Level.ERROR, "The unhandled-exception handler of context '" + name
                    + "' threw; the queue goes on. The original failure was: " + failure, handlerFailure);
        }
    }

    void countBlocked() {
        BLOCKED.getAndAdd(this, 1L);
    }

    // ---------------------------------------------------------------- queries

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
        int s = state;
        return "RendererSyncContext[" + name + ", queueDepth=" + Math.max(0, queued(s))
                + ((s & CLOSED) != 0 ? ", closed" : "") + "]";
    }
}
