package dev.synccontext;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;

/**
 * A queued callback. It is at once the queue node (intrusive {@link #next} link), the holder of the
 * callback and, for {@code invokeAsync*}, the future handed to the caller: one allocation per queued
 * call, as Blazor reuses the returned task as its queue entry.
 *
 * <p>Subclasses are never shared between contexts and are run or aborted exactly once, by the thread
 * that owns the context at that moment.
 */
abstract class QueuedCallback<T> extends CompletableFuture<T> {

    private static final VarHandle NEXT;

    static {
        try {
            NEXT = MethodHandles.lookup().findVarHandle(QueuedCallback.class, "next", QueuedCallback.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // Accessed through NEXT.
    private QueuedCallback<?> next;

    /** Coarse time it was queued if chosen for sampling (see {@link SampleClock}), else 0. */
    int sampledAt;

    final QueuedCallback<?> nextAcquire() {
        return (QueuedCallback<?>) NEXT.getAcquire(this);
    }

    final void setNextRelease(QueuedCallback<?> node) {
        NEXT.setRelease(this, node);
    }

    /** Drops the link once dequeued, so a future the user keeps does not retain later nodes. */
    final void clearNext() {
        NEXT.set(this, null);
    }

    /**
     * Runs the callback inside {@code ctx} (owner and frame already set) and completes whatever
     * waits for it. Never throws.
     */
    abstract TaskOutcome runQueued(SerialContext ctx);

    /**
     * The callback will never run: fails its future or waiting sender with {@code reason}.
     *
     * @return the posted runnable when this is a post (to return from {@code closeNow} or to report),
     *     otherwise null
     */
    abstract Runnable abort(Throwable reason);
}
