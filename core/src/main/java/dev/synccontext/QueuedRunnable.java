package dev.synccontext;

/** A queued {@code invokeAsync(Runnable)}. */
final class QueuedRunnable extends QueuedFuture<Void> {

    QueuedRunnable(SerialContext context, Runnable callback) {
        super(context, callback);
    }

    @Override
    TaskOutcome runQueued(SerialContext ctx, Object callback) {
        if (isDone()) {
            return TaskOutcome.CANCELLED; // the caller cancelled it before its turn
        }
        try {
            ((Runnable) callback).run();
        } catch (Throwable failure) {
            completeExceptionally(failure);
            return Outcomes.of(failure);
        }
        complete(null);
        return TaskOutcome.SUCCESS;
    }
}
