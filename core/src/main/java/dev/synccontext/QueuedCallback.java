package dev.synccontext;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;

/**
 * A queued callback. It is at once the queue node (intrusive {@link #next} link), the holder of the
 * callback and, for {@code invokeAsync*}, the future handed to the caller: one allocation per queued
 * call, as Blazor reuses the returned task as its queue entry.
 *
 * <h2>Claiming</h2>
 * Whoever takes the callback out of {@link #callback} decides its fate, exactly once: the context's
 * owner (to run it), {@code closeNow()} (to abort it) or, when it raced a {@code closeNow()}, the
 * thread that queued it (to reject it). The owner claims in two steps, because it may run the callback
 * only if the context was not force-closed: it parks {@link #PENDING} in the field, reads the context's
 * state, and then either {@linkplain #settle() settles} (runs) or {@linkplain #unclaim puts the callback
 * back} for the aborter. An aborter that finds {@code PENDING} waits those few instructions out, so a
 * node is never aborted and run, and never lost between the two.
 *
 * <p>Subclasses are never shared between contexts.
 */
abstract class QueuedCallback<T> extends CompletableFuture<T> {

    /** In {@link #callback} while the owner checks whether it may run it. */
    static final Object PENDING = new Object();

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
    private QueuedCallback<?> next;

    /** The callback until claimed; {@link #PENDING} while the owner decides; null once claimed. */
    @SuppressWarnings("unused") // Accessed through CALLBACK.
    private Object callback;

    /** Coarse time it was queued if chosen for sampling (see {@link SampleClock}), else 0. */
    int sampledAt;

    QueuedCallback(Object callback) {
        CALLBACK.set(this, callback);
    }

    final QueuedCallback<?> nextAcquire() {
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

    /** The owner's first step: the callback, now {@link #PENDING}; or null if someone else claimed it. */
    final Object claimPending() {
        Object c = CALLBACK.getAcquire(this);
        if (c == null || !CALLBACK.compareAndSet(this, c, PENDING)) {
            return null;
        }
        return c;
    }

    /** The owner may run it: the claim is final. */
    final void settle() {
        CALLBACK.setRelease(this, null);
    }

    /** The owner may not run it (the context was force-closed): leaves it to the aborter. */
    final void unclaim(Object c) {
        CALLBACK.setRelease(this, c);
    }

    /** An aborter's claim: the callback, or null if it was claimed by someone else. Waits out {@code PENDING}. */
    final Object claimForAbort() {
        for (int spins = 0;; spins++) {
            Object c = CALLBACK.getAcquire(this);
            if (c == null) {
                return null;
            }
            if (c == PENDING) {
                CallbackQueue.backOff(spins);
            } else if (CALLBACK.compareAndSet(this, c, null)) {
                return c;
            }
        }
    }

    /** Whether the callback is not yet claimed (or only tentatively). Exact when read by the owner. */
    final boolean unclaimed() {
        return CALLBACK.getOpaque(this) != null;
    }

    /**
     * Runs {@code callback}, which the owner claimed, inside {@code ctx} (owner and frame already set)
     * and completes whatever waits for it. Never throws.
     */
    abstract TaskOutcome runQueued(SerialContext ctx, Object callback);

    /**
     * The claimed {@code callback} will never run: fails this node's future or waiting sender with
     * {@code reason}.
     *
     * @return the posted runnable when this is a post (to return from {@code closeNow} or to report),
     *     otherwise null
     */
    abstract Runnable abort(Object callback, Throwable reason);
}
