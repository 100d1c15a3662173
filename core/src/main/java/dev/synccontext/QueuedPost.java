package dev.synccontext;

/**
 * A queued {@code post}/{@code execute}. It is a {@code CompletableFuture} only because every queue
 * node is one; the future is never handed out. Header, two inherited future fields, the link, the
 * callback and the sample mark make 32 bytes.
 */
final class QueuedPost extends QueuedCallback<Void> {

    QueuedPost(Runnable callback) {
        super(callback);
    }

    @Override
    CallbackOutcome runQueued(SyncContext ctx, Object callback) {
        try {
            ((Runnable) callback).run();
        } catch (Throwable failure) {
            CallbackRunner.reportUnhandled(ctx, failure);
            return Outcomes.of(failure);
        }
        return CallbackOutcome.SUCCESS;
    }

    @Override
    Runnable abort(Object callback, Throwable reason) {
        return (Runnable) callback;
    }
}
