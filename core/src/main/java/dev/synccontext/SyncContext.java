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

    private static final VarHandle STATE;
    private static final VarHandle OWNER;
    private static final VarHandle PROGRESS;
    private static final VarHandle UNHANDLED;
    private static final VarHandle BLOCKED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(SyncContext.class, "state", int.class);
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

    private volatile int state;
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
        ProbeCounters.CALLS.increment();
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

    private <T> CompletableFuture<T> submit(Object callback, Invocation how) {
        Thread caller = Thread.currentThread();
        if (OWNER.getOpaque(this) == caller) {
            // Called from inside this context: run it now, as a plain method call.
            return CallbackRunner.invoke(this, callback, how, CallbackPath.NESTED);
        }
        QueuedFuture<T> node = null;
        for (;;) {
            int s = state;
            if ((s & (COUNT_MASK | CLOSED)) == 0) {
                if (STATE.compareAndSet(this, s, s + 1 + RUNNING)) {
                    return invokeInline(callback, how, caller);
                }
                continue;
            }
            String refusal = refusal(s);
            if (refusal != null) {
                CallbackRunner.observe(this, CallbackPath.QUEUED, CallbackOutcome.REJECTED);
                return CompletableFuture.failedFuture(new RejectedExecutionException(refusal));
            }
            if (node == null) {
                try {
                    node = how.queued(this, callback);
                } catch (Throwable decoratorFailure) {
                    return CompletableFuture.failedFuture(decoratorFailure);
                }
            }
            if (STATE.compareAndSet(this, s, s + 1)) {
                ProbeCounters.QUEUED_CALLS.increment();
                enqueueUnlessForceClosed(node); // if closeNow() began meanwhile, the node comes back cancelled
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
            releaseFromCaller();
        }
    }

    // ---------------------------------------------------------------- post / execute

    @Override
    public void post(Runnable callback) {
        Objects.requireNonNull(callback, "callback");
        CallbackDecorator decorator = settings.decorator;
        QueuedPost node = new QueuedPost(decorator == null ? callback : decorator.decorate(callback));
        CallbackRunner.markSample(this, node);
        for (;;) {
            int s = state;
            String refusal = refusal(s);
            if (refusal != null) {
                CallbackRunner.observe(this, CallbackPath.QUEUED, CallbackOutcome.REJECTED);
                throw new RejectedExecutionException(refusal);
            }
            boolean idle = (s & COUNT_MASK) == 0; // then this post owns the context, and hands it to a drain
            if (STATE.compareAndSet(this, s, idle ? s + 1 + SCHEDULED : s + 1)) {
                if (!enqueueUnlessForceClosed(node)) {
                    throw Refusals.closedNowWhileQueued(name);
                }
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
        node.abort(callback, Refusals.closedNowBeforeStart(name));
        CallbackRunner.observe(this, node.path(), CallbackOutcome.CANCELLED);
        terminateIfDone((int) STATE.getAndAdd(this, -1) - 1);
        return false;
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
                CallbackRunner.observe(this, CallbackPath.SEND, CallbackOutcome.REJECTED);
                throw new RejectedExecutionException(refusal);
            }
            if (node == null) {
                node = new QueuedSend(this, callback, caller);
            }
            if (STATE.compareAndSet(this, s, s + 1)) {
                if (!enqueueUnlessForceClosed(node)) {
                    throw Refusals.closedNowWhileQueued(name);
                }
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
                ProbeCounters.HANDOFFS.increment();
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
        if (takeOverScheduled()) {
            ProbeCounters.DRAINS.increment();
            Drain.run(this);
        } // else closeNow() took the queue over before this drain started
    }

    /**
     * Takes the drain over from {@code SCHEDULED}: the ownership it was handed with becomes this
     * thread's ({@code RUNNING}). False if closeNow() took the queue over first; nothing to do then.
     */
    private boolean takeOverScheduled() {
        int s;
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
    boolean abortOrRelease(int s, int done, Thread self) {
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

    /**
     * Fairness, once the drain has taken {@code maxBatch} nodes: gives back the {@code done} callbacks
     * and the ownership, with {@code SCHEDULED} set, so that the rest of the work queues behind others'
     * on the executor ({@link #resubmitOrReclaim} hands it over). The token is cleared before the CAS.
     *
     * @return true if given up; false if the state moved meanwhile and the owner must look again, token
     *     and progress restored
     */
    boolean yieldAfterBatch(int s, int done, Thread self) {
        OWNER.setOpaque(this, null);
        PROGRESS.setOpaque(this, 0);
        if (STATE.compareAndSet(this, s, s - done - RUNNING + SCHEDULED)) {
            return true;
        }
        OWNER.setOpaque(this, self);
        PROGRESS.setOpaque(this, done);
        return false;
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
            STATE.getAndAdd(this, -done);
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
    public void close() {
        Termination t = Termination.of(this);
        int previous = (int) STATE.getAndBitwiseOr(this, CLOSED);
        if ((previous & COUNT_MASK) == 0) {
            t.terminated.complete(null);
        }
    }

    @Override
    public List<Runnable> closeNow() {
        Termination t = Termination.of(this);
        int previous = (int) STATE.getAndBitwiseOr(this, CLOSED | ABORTED);
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
        int s;
        while (((s = state) & SCHEDULED) != 0 && !STATE.compareAndSet(this, s, s - SCHEDULED)) {
            Thread.onSpinWait();
        }
        Termination.Abort abort = t.abortQueued(this);
        if (abort.count > 0) {
            terminateIfDone((int) STATE.getAndAdd(this, -abort.count) - abort.count);
            FlightEvents.droppedWork(this, abort.count, abort.posts.size());
        }
        return abort.posts;
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
            Termination.of(this).terminated.complete(null);
        }
    }

    @Override
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        Objects.requireNonNull(timeout, "timeout");
        return Termination.of(this).await(this, timeout);
    }

    // ---------------------------------------------------------------- admission

    /** Why a new callback cannot be accepted in state {@code s}, or null if it can. */
    private @Nullable String refusal(int s) {
        if ((s & CLOSED) != 0) {
            return Refusals.closed(name);
        }
        int max = settings.maxQueueDepth;
        if (max > 0 && queued(s) >= max) {
            return Refusals.full(name, max);
        }
        return null;
    }

    private int queued(int s) {
        int running = (s & RUNNING) != 0 ? 1 : 0;
        return (s & COUNT_MASK) - running - (int) PROGRESS.getOpaque(this);
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
    int stateVolatile() {
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
        int s = state;
        return "RendererSyncContext[" + name + ", queueDepth=" + Math.max(0, queued(s))
                + ((s & CLOSED) != 0 ? ", closed" : "") + "]";
    }
}
