package dev.synccontext;

/** A queued {@code invokeAsync(Runnable)}. */
final class QueuedRunnable extends QueuedFuture<Void> {

    private Runnable callback;

    QueuedRunnable(SerialContext context, Runnable callback) {
        super(context);
        this.callback = callback;
    }

    @Override
    boolean notStarted() {
        return callback != null;
    }

    @Override
    TaskOutcome runQueued(SerialContext ctx) {
        Runnable r = callback;
        callback = null;
        if (isDone()) {
            return TaskOutcome.CANCELLED; // the caller cancelled it before its turn
        }
        try {
            r.run();
        } catch (Throwable failure) {
            completeExceptionally(failure);
            return Outcomes.of(failure);
        }
        complete(null);
        return TaskOutcome.SUCCESS;
    }

    @Override
    Runnable abort(Throwable reason) {
        callback = null;
        completeExceptionally(reason);
        return null;
    }
}
