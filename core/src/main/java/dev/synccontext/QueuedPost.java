package dev.synccontext;

/**
 * A queued {@code post}/{@code execute} chosen for timing by an observer ({@link CallbackRunner#sampledPost}):
 * it keeps the time it was queued. Any other post's slot holds the runnable itself. It is a
 * {@code CompletableFuture} only because every queue node is one; the future is never handed out.
 */
final class QueuedPost extends QueuedCallback<Void> {

    QueuedPost(Runnable callback) {
        super(callback);
    }

    @Override
    CallbackOutcome runQueued(SyncContext ctx, Object callback) {
        return CallbackRunner.runPost(ctx, (Runnable) callback);
    }

    @Override
    Runnable abort(Object callback, Throwable reason) {
        return (Runnable) callback;
    }
}
