package dev.synccontext;

import java.util.concurrent.CompletionStage;
import org.jspecify.annotations.Nullable;

/**
 * A queued {@code invokeAsyncStage}: runs the synchronous part in the context, then mirrors the
 * returned stage with a completion callback of its own, so the future completes on the thread that
 * completes the stage, with no hop through the queue. That callback is a lambda, not this future, so
 * that the future a user gets does not show a public {@code accept}. The trade-off: the lambda is one
 * more 16-byte object per queued call whose stage is still pending when mirrored (120 instead of 104
 * bytes per queued call with the node and the stage's dependent, counted with the thread's allocated
 * bytes); none when the stage is already complete (the JIT scalar-replaces it), and none on the idle
 * path, which never gets here.
 */
final class QueuedStage<T> extends QueuedFuture<T> {

    /**
     * Set once the synchronous part has returned (volatile: a waiter that read it stale would take a
     * wait on the returned stage for a wait on the context, and could see a cycle that is not one).
     */
    private volatile boolean synchronousPartDone;

    QueuedStage(SyncContext context, Object callback) {
        super(context, callback);
    }

    /**
     * The context while the synchronous part is queued or running (on the context's owner); none once it
     * has returned: the future then waits on the returned stage, which no context runs as far as this
     * class knows.
     */
    @Override
    public @Nullable SyncContext neededContext() {
        return isDone() || synchronousPartDone ? null : context;
    }

    @Override
    @SuppressWarnings("unchecked")
    CallbackOutcome runQueued(SyncContext ctx, Object callback) {
        if (isDone()) {
            return CallbackOutcome.CANCELLED;
        }
        CompletionStage<T> stage;
        try {
            stage = (CompletionStage<T>) Invocation.STAGE.run(callback);
        } catch (Throwable failure) {
            completeExceptionally(failure);
            return Outcomes.of(failure);
        } finally {
            synchronousPartDone = true;
        }
        if (stage == null) {
            completeExceptionally(Invocation.nullStage());
            return CallbackOutcome.FAILURE;
        }
        stage.whenComplete(Invocation.completing(this));
        return CallbackOutcome.SUCCESS;
    }
}
