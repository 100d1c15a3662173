package dev.synccontext;

import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * A queued callback that is more than a {@code Runnable}: the future handed to the caller of
 * {@code invokeAsync*} (as Blazor reuses the returned task as its queue entry), a waiting sender, or a
 * post chosen for timing. It goes into its index's slot of the queue ({@link QueueChunk}) as it is; a
 * plain post's slot holds the posted runnable itself, with no node at all.
 *
 * <h2>Claiming</h2>
 * Whoever claims the slot decides the node's fate, exactly once, with one atomic exchange on the slot:
 * the context's owner (to run it), {@code closeNow()} (to abort it) or the drain of a context whose
 * executor refused it (to reject it). That thread then takes the callback out with {@link #take}.
 *
 * <p>Subclasses are never shared between contexts.
 */
abstract sealed class QueuedCallback<T> extends CompletableFuture<T> permits QueuedPost, QueuedSend, QueuedFuture {

    /** The callback until taken; null once taken. Published with the slot, read by the slot's claimer. */
    private @Nullable Object callback;

    /** Coarse time it was queued if chosen for sampling (see {@link SampleTime}), else 0. */
    int sampledAt;

    QueuedCallback(Object callback) {
        this.callback = callback;
    }

    /**
     * Takes the callback out, by the thread that claimed this node's slot (so no one else reads it);
     * cleared so that a future the user keeps does not retain it.
     */
    @SuppressWarnings("NullAway") // set in the constructor, taken once by the slot's one claimer
    final Object take() {
        Object c = callback;
        callback = null;
        return c;
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
