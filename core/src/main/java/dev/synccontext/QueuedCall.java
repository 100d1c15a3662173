package dev.synccontext;

import org.jspecify.annotations.Nullable;

/**
 * A queued {@code invokeAsync(Runnable)} or {@code invokeAsync(Callable)}: its {@link Invocation} calls
 * the callback (a runnable as a callable returning null), and the value completes this future.
 */
final class QueuedCall<T> extends QueuedFuture<T> {

    private final Invocation invocation;

    QueuedCall(SyncContext context, Object callback, Invocation invocation) {
        super(context, callback);
        this.invocation = invocation;
    }

    /** Queued, or claimed and running on its context's owner: either way it needs the context until done. */
    @Override
    public @Nullable SyncContext neededContext() {
        return isDone() ? null : context;
    }

    @Override
    @SuppressWarnings("unchecked")
    CallbackOutcome runQueued(SyncContext ctx, Object callback) {
        if (isDone()) {
            return CallbackOutcome.CANCELLED; // the caller cancelled it before its turn
        }
        T value;
        try {
            value = (T) invocation.run(callback);
        } catch (Throwable failure) {
            completeExceptionally(failure);
            return Outcomes.of(failure);
        }
        complete(value);
        return CallbackOutcome.SUCCESS;
    }
}
