package dev.synccontext;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * A queued {@code invokeAsync*} call: the future returned to the caller. Blocking on it from inside
 * the same context while it is still queued can never finish (the caller holds the context its
 * callback waits for), so {@link #join()} and {@link #get()} throw instead of hanging.
 */
abstract sealed class QueuedFuture<T> extends QueuedCallback<T> permits QueuedCall, QueuedStage {

    final SyncContext context;

    QueuedFuture(SyncContext context, Object callback) {
        super(callback);
        this.context = context;
    }

    @Override
    final @Nullable Runnable abort(Object callback, Throwable reason) {
        completeExceptionally(reason);
        return null;
    }

    @Override
    public T join() {
        guardDeadlock();
        return super.join();
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        guardDeadlock();
        return super.get();
    }

    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        guardDeadlock();
        return super.get(timeout, unit);
    }

    private void guardDeadlock() {
        if (!isDone() && unclaimed() && context.checkAccess()) {
            throw new IllegalStateException("Deadlock: a callback of context '" + context.name()
                    + "' blocks on a future whose callback is queued on the same context, behind the"
                    + " caller itself, so it can never run. Compose instead of blocking (thenAccept,"
                    + " thenCompose), or use send()/a nested invokeAsync to run it now.");
        }
    }
}
