package dev.synccontext;

import java.util.concurrent.Callable;

/** A queued {@code invokeAsync(Callable)}. */
final class QueuedCallable<T> extends QueuedFuture<T> {

    QueuedCallable(SerialContext context, Callable<T> callback) {
        super(context, callback);
    }

    @Override
    @SuppressWarnings("unchecked")
    TaskOutcome runQueued(SerialContext ctx, Object callback) {
        if (isDone()) {
            return TaskOutcome.CANCELLED;
        }
        T value;
        try {
            value = ((Callable<T>) callback).call();
        } catch (Throwable failure) {
            completeExceptionally(failure);
            return Outcomes.of(failure);
        }
        complete(value);
        return TaskOutcome.SUCCESS;
    }
}
