package dev.synccontext;

import java.util.concurrent.Callable;

/** A queued {@code invokeAsync(Callable)}. */
final class QueuedCallable<T> extends QueuedFuture<T> {

    private Callable<T> callback;

    QueuedCallable(SerialContext context, Callable<T> callback) {
        super(context);
        this.callback = callback;
    }

    @Override
    boolean notStarted() {
        return callback != null;
    }

    @Override
    TaskOutcome runQueued(SerialContext ctx) {
        Callable<T> c = callback;
        callback = null;
        if (isDone()) {
            return TaskOutcome.CANCELLED;
        }
        T value;
        try {
            value = c.call();
        } catch (Throwable failure) {
            completeExceptionally(failure);
            return Outcomes.of(failure);
        }
        complete(value);
        return TaskOutcome.SUCCESS;
    }

    @Override
    Runnable abort(Throwable reason) {
        callback = null;
        completeExceptionally(reason);
        return null;
    }
}
