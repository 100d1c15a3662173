package dev.synccontext;

import java.util.concurrent.Callable;

/** A queued {@code invokeAsync(Callable)}. */
final class QueuedCallable<T> extends QueuedFuture<T> {

    QueuedCallable(SyncContext context, Callable<T> callback) {
        super(context, callback);
    }

    @Override
    @SuppressWarnings("unchecked")
    CallbackOutcome runQueued(SyncContext ctx, Object callback) {
        if (isDone()) {
            return CallbackOutcome.CANCELLED;
        }
        T value;
        try {
            value = ((Callable<T>) callback).call();
        } catch (Throwable failure) {
            completeExceptionally(failure);
            return Outcomes.of(failure);
        }
        complete(value);
        return CallbackOutcome.SUCCESS;
    }
}
