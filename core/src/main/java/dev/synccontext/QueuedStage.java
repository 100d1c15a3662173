package dev.synccontext;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;

/**
 * A queued {@code invokeAsyncStage}: runs the synchronous part in the context, then mirrors the
 * returned stage by registering itself as its completion callback, so the future completes on the
 * thread that completes the stage, with no hop through the queue.
 */
final class QueuedStage<T> extends QueuedFuture<T> implements BiConsumer<T, Throwable> {

    QueuedStage(SyncContext context, Callable<? extends CompletionStage<T>> callback) {
        super(context, callback);
    }

    @Override
    @SuppressWarnings("unchecked")
    CallbackOutcome runQueued(SyncContext ctx, Object callback) {
        Callable<? extends CompletionStage<T>> c = (Callable<? extends CompletionStage<T>>) callback;
        if (isDone()) {
            return CallbackOutcome.CANCELLED;
        }
        CompletionStage<T> stage;
        try {
            stage = c.call();
        } catch (Throwable failure) {
            completeExceptionally(failure);
            return Outcomes.of(failure);
        }
        if (stage == null) {
            completeExceptionally(new NullPointerException(
                    "invokeAsyncStage callback returned null instead of a CompletionStage"));
            return CallbackOutcome.FAILURE;
        }
        stage.whenComplete(this);
        return CallbackOutcome.SUCCESS;
    }

    /** The mirrored stage completed. */
    @Override
    public void accept(T value, Throwable failure) {
        if (failure != null) {
            completeExceptionally(failure);
        } else {
            complete(value);
        }
    }
}
