package dev.synccontext;

/**
 * A queued {@code post}/{@code execute}. It is a {@code CompletableFuture} only because every queue
 * node is one; the future is never handed out. Header, two inherited and two own fields make 32 bytes.
 */
final class QueuedPost extends QueuedCallback<Void> {

    /** Cleared once run: the node may stay behind as the queue's dummy until the next one arrives. */
    private Runnable callback;

    QueuedPost(Runnable callback) {
        this.callback = callback;
    }

    @Override
    TaskOutcome runQueued(SerialContext ctx) {
        Runnable r = callback;
        callback = null;
        try {
            r.run();
        } catch (Throwable failure) {
            ctx.reportUnhandled(failure);
            return Outcomes.of(failure);
        }
        return TaskOutcome.SUCCESS;
    }

    @Override
    Runnable abort(Throwable reason) {
        return callback;
    }
}
