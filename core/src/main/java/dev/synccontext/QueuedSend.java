package dev.synccontext;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * A {@code send} from outside that found the context busy. Its thread parks until the drain reaches
 * this node and hands it the context ({@link #handOff}), so the callback runs on the sender's own
 * thread; or until the context aborts it; or until the sender is interrupted and withdraws. Exactly
 * one of the three wins the status CAS. Withdrawing does not claim the node: whoever claims it later
 * (the drain, or {@code closeNow()}) finds it withdrawn and counts it as finished.
 */
final class QueuedSend extends QueuedCallback<Void> implements Awaited {

    static final int WAITING = 0;
    static final int HANDED_OFF = 1;
    static final int FAILED = 2;
    static final int WITHDRAWN = 3;

    private static final VarHandle STATUS =
            FieldHandles.find(MethodHandles.lookup(), QueuedSend.class, "status", int.class);

    private final Thread sender;
    /** The context it waits on, for {@link WaitGraph}. */
    private final SyncContext context;
    private volatile int status;
    /** Written before the FAILED status is published, read after it is seen. */
    private @Nullable Throwable failure;

    QueuedSend(SyncContext context, Runnable callback, Thread sender) {
        super(callback);
        this.context = context;
        this.sender = sender;
    }

    @Override
    public @Nullable SyncContext neededContext() {
        return status == WAITING ? context : null;
    }

    /**
     * The sender gives up its turn before it came (a deadlock was found): true if it did, false if the
     * turn came or the context aborted it first. The drain that claims it later counts it as finished.
     */
    boolean withdraw() {
        return STATUS.compareAndSet(this, WAITING, WITHDRAWN);
    }

    /**
     * Called by the drain once it claimed this node: gives the context to the sender. False if the
     * sender withdrew.
     */
    boolean handOff() {
        if (STATUS.compareAndSet(this, WAITING, HANDED_OFF)) {
            LockSupport.unpark(sender);
            return true;
        }
        return false;
    }

    @Override
    CallbackPath path() {
        return CallbackPath.SEND;
    }

    @Override
    CallbackOutcome runQueued(SyncContext ctx, Object callback) {
        throw new AssertionError("a send is handed off to its own thread, never run by the drain");
    }

    @Override
    @Nullable Runnable abort(Object callback, Throwable reason) {
        failure = reason;
        if (STATUS.compareAndSet(this, WAITING, FAILED)) {
            LockSupport.unpark(sender);
        }
        return null;
    }

    /**
     * Parks the sender until its turn. Returns {@link #HANDED_OFF}, {@link #FAILED} (see
     * {@link #failure}) or {@link #WITHDRAWN} (interrupted before its turn; interrupt status kept).
     */
    private int awaitTurn() {
        boolean interrupted = false;
        int s;
        while ((s = status) == WAITING) {
            LockSupport.park(this);
            if (Thread.interrupted()) {
                interrupted = true;
                if (STATUS.compareAndSet(this, WAITING, WITHDRAWN)) {
                    s = WITHDRAWN;
                    break;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return s;
    }

    /**
     * Parks the sender until its turn ({@link #awaitTurn}) and returns once the context was handed to
     * it. Otherwise throws what the sender sees: a {@link RejectedExecutionException} when the context
     * aborted it, a {@link CancellationException} when it was interrupted first (interrupt status kept).
     */
    void awaitHandOff(String contextName) {
        switch (awaitTurn()) {
            case HANDED_OFF:
                return;
            case FAILED:
                Throwable reason = Objects.requireNonNull(failure, "written before FAILED is published");
                throw new RejectedExecutionException("send to context '" + contextName + "' did not run: "
                        + reason.getMessage(), reason);
            default:
                throw new CancellationException("send to context '" + contextName + "' was interrupted while"
                        + " waiting for its turn; the callback did not run");
        }
    }

    /**
     * Parks the sender until its turn, unless that turn could never come (a deadlock, {@link WaitGraph}):
     * then it withdraws and throws, and the drain counts the send as finished. Returns owning the context,
     * or throws why the callback will not run ({@link #awaitHandOff}).
     */
    void awaitOwnTurn(String contextName) {
        WaitGraph.Wait wait = WaitGraph.enter(this);
        try {
            ContextDeadlockException deadlock = wait == null ? null : WaitGraph.deadlock(wait);
            if (deadlock != null && withdraw()) {
                throw deadlock;
            }
            awaitHandOff(contextName);
        } finally {
            WaitGraph.leave(wait);
        }
    }
}
