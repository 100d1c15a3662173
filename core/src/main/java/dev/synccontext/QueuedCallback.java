package dev.synccontext;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * A queued callback. It is at once the queue node (intrusive {@link #next} link), the holder of the
 * callback and, for {@code invokeAsync*}, the future handed to the caller: one allocation per queued
 * call, as Blazor reuses the returned task as its queue entry.
 *
 * <h2>Claiming</h2>
 * Whoever takes the callback out of {@link #callback} decides its fate, exactly once, with one atomic
 * exchange: the context's owner (to run it), {@code closeNow()} (to abort it) or the drain of a context
 * whose executor refused it (to reject it). The thread that queues a node may also take it, to reject
 * it, but only before it links the node, when no one else can reach it (see
 * {@code SyncContext.enqueueUnlessForceClosed}).
 *
 * <p>Subclasses are never shared between contexts.
 */
abstract sealed class QueuedCallback<T> extends CompletableFuture<T> permits QueuedPost, QueuedSend, QueuedFuture {

    private static final VarHandle NEXT;
    private static final VarHandle CALLBACK;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            NEXT = lookup.findVarHandle(QueuedCallback.class, "next", QueuedCallback.class);
            CALLBACK = lookup.findVarHandle(QueuedCallback.class, "callback", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // Accessed through NEXT.
    private @Nullable QueuedCallback<?> next;

    /** The callback until claimed; null once claimed. */
    @SuppressWarnings("unused") // Accessed through CALLBACK.
    private @Nullable Object callback;

    /** Coarse time it was queued if chosen for sampling (see {@link SampleClock}), else 0. */
    int sampledAt;

    QueuedCallback(Object callback) {
        CALLBACK.set(this, callback);
    }

    final @Nullable QueuedCallback<?> nextAcquire() {
        return (QueuedCallback<?>) NEXT.getAcquire(this);
    }

    final void setNextRelease(QueuedCallback<?> node) {
        NEXT.setRelease(this, node);
    }

    /**
     * Drops the link once dequeued, so a future the user keeps does not retain later nodes. Release:
     * a {@code closeNow()} walking the queue that sees the link gone also sees the owner's new head.
     */
    final void clearNextRelease() {
        NEXT.setRelease(this, null);
    }

    /**
     * Takes the callback to run or abort it: the callback, or null if someone else took it first.
     * One atomic exchange, so two threads that race for a node never both get it.
     */
    final @Nullable Object claim() {
        return CALLBACK.getAndSet(this, null);
    }

    /**
     * Takes the callback of a node that is not linked yet: only its producer can reach it, so a plain
     * store does; the release store that links the node publishes it.
     */
    final Object takeUnlinked() {
        Object c = CALLBACK.get(this);
        CALLBACK.set(this, null);
        return c;
    }

    /** Whether the callback is not yet claimed. Exact when read by the owner. */
    final boolean unclaimed() {
        return CALLBACK.getOpaque(this) != null;
    }

    /** Which path the observer hears of for this node: a {@code send}'s own, or the queue's. */
    CallbackPath path() {
        return CallbackPath.QUEUED;
    }

    /**
     * Runs {@code callback}, which the owner claimed, inside {@code ctx} (owner and frame already set)
     * and completes whatever waits for it. Never throws.
     */
    abstract CallbackOutcome runQueued(SyncContext ctx, Object callback);

    /**
     * The claimed {@code callback} will never run: fails this node's future or waiting sender with
     * {@code reason}.
     *
     * @return the posted runnable when this is a post (to return from {@code closeNow} or to report),
     *     otherwise null
     */
    abstract @Nullable Runnable abort(Object callback, Throwable reason);
}
