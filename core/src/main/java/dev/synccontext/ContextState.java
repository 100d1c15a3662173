package dev.synccontext;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * A context's state word, its layout and everything that only reads it: the queries of
 * {@link RendererSyncContext}, the queue depth, the counters. Every write of the word, of the owner
 * token and of the progress is a method of {@link SyncContext}, the one subclass; docs/DESIGN.md, "The
 * state machine", lists them.
 *
 * <h2>The state word</h2>
 * One {@code long}, {@link #state}, decides who may run what: the <em>count</em> of callbacks accepted
 * and not yet finished (low 28 bits), four flags, {@code CHUNKED} and the queue's <em>sequence</em> (top
 * 31 bits: the next index to hand out). Whoever moves the count from 0 to 1 <em>owns</em> the context
 * until the count is back to 0. Ownership is in exactly one of two places: {@code RUNNING} (a thread
 * holds it: an inline caller, a sender, a drain, a waiter given its turn) or {@code SCHEDULED} (a drain
 * was handed to the executor and has not started). {@code CLOSED} makes every later reservation fail;
 * {@code ABORTED} (with {@code CLOSED}) asks the owner to abort what is queued.
 *
 * <h2>Ownership token</h2>
 * {@link OwnerSide#owner} holds the thread that runs a callback of this context (a drain: for its whole
 * batch). It is cleared <em>before</em> the CAS that gives ownership away, never after, so it never erases
 * the next owner's token; a thread sees its own reference there only while it owns the context, which
 * makes {@link #checkAccess()} exact without a thread-local. Every write of the token and of the progress
 * is a method of {@link SyncContext}.
 *
 * <p>The word is a field of this superclass, not of {@code SyncContext}, so that the queries live apart
 * from the transitions; the object and its layout are the same ({@code FieldLayoutTest}).
 */
abstract class ContextState extends CallbackQueue implements RendererSyncContext {

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

    /** The state word. Only {@link SyncContext} writes it (every transition is a method there). */
    static final VarHandle STATE = FieldHandles.find(MethodHandles.lookup(), ContextState.class, "state", long.class);
    /** The owner token; written only by {@link SyncContext} ("Ownership token" above). */
    static final VarHandle OWNER = FieldHandles.find(MethodHandles.lookup(), OwnerSide.class, "owner", Thread.class);
    /** The owner's progress; written only by {@link SyncContext}. */
    static final VarHandle PROGRESS = FieldHandles.find(MethodHandles.lookup(), OwnerSide.class, "progress", int.class);
    private static final VarHandle UNHANDLED =
            FieldHandles.find(MethodHandles.lookup(), ContextState.class, "unhandledCount", long.class);
    private static final VarHandle BLOCKED =
            FieldHandles.find(MethodHandles.lookup(), ContextState.class, "blockedCount", long.class);

    final String name;
    final ContextSettings settings;

    /** Null until the first close, closeNow or awaitTermination; see {@link Termination#of}. */
    @SuppressWarnings("unused") // Accessed through Termination's VarHandle.
    @Nullable Termination termination;
    /** See the class comment. Read here and anywhere; written only by {@link SyncContext}'s transitions. */
    volatile long state;
    @SuppressWarnings("unused") // Accessed through UNHANDLED.
    private long unhandledCount;
    @SuppressWarnings("unused") // Accessed through BLOCKED.
    private long blockedCount;

    ContextState(String name, ContextSettings settings) {
        this.name = name;
        this.settings = settings;
    }

    /**
     * The state after a queued reservation: one more callback counted, the next index of the sequence
     * taken, and the queue marked as having a chunk (the reservation that sets that mark creates it). A
     * reservation is the order point of the queue: a {@code closeNow()} that comes after it finds its
     * index below the sequence it reads, and claims the slot once it is written; a reservation after
     * closeNow() fails, as the state is closed.
     */
    static long reserved(long s) {
        return (s + 1 + SEQUENCE_ONE) | CHUNKED;
    }

    /** The index a reservation on state {@code s} took. */
    static int index(long s) {
        return (int) (s >>> SEQUENCE_SHIFT);
    }

    /** Why a new callback cannot be accepted in state {@code s}, or null if it can; allocates only to refuse. */
    final @Nullable RejectedExecutionException refusal(long s) {
        if ((s & CLOSED) != 0) {
            return Refusals.closed(name, Termination.of(this));
        }
        int max = settings.maxQueueDepth;
        if (max > 0 && queued(s) >= max) {
            return new RejectedExecutionException(Refusals.full(name, max));
        }
        return null;
    }

    /** Callbacks accepted and not yet taken by the owner, in state {@code s} (briefly too many, never too few). */
    final int queued(long s) {
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

    /** The state word, read volatile: for the owner's loop ({@link Drain}), which moves it through {@link SyncContext}. */
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
            throw Refusals.noAccess(name);
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
