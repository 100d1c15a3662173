package dev.synccontext;

/** A queued {@code invokeAsync(Runnable)}. */
final class QueuedRunnable extends QueuedFuture<Void> {

    QueuedRunnable(SyncContext context, Runnable callback) {
        super(context, callback);
    }

    @Override
    CallbackOutcome runQueued(SyncContext ctx, Object callback) {
        if (isDone()) {
            return CallbackOutcome.CANCELLED; // the caller cancelled it before its turn
        }
        try {
            ((Runnable) callback).run();
        } catch (Throwable failure) {
            completeExceptionally(failure);
            return Outcomes.of(failure);
        }
        complete(null);
        return CallbackOutcome.SUCCESS;
    }
}
