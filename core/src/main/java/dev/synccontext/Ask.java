package dev.synccontext;

import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;

/**
 * {@link RendererSyncContext#ask}: the returned future, and the callback that runs on the target. Built
 * from the public calls only ({@code invokeAsync} on the target, {@code post} on the caller), so the
 * contexts' own paths are untouched; what makes it ordered is <em>where</em> the answer is posted: inside
 * the target's callback, before the target is released, so no later callback of the target can post to
 * the caller ahead of it.
 *
 * <p>A blocking wait on it needs the caller's context, always: the answer is a callback queued there
 * ({@link #neededContext()}). So a {@code join()} from inside the caller throws
 * {@link ContextDeadlockException} at once, whether or not the target has run yet. A cycle that passes
 * through the target alone (its holder waits on the waiter's context) is not seen while the target has
 * not run; that wait hangs as a wait on a plain future does.
 */
final class Ask<T> extends WaitGuardedFuture<T> {

    private final SyncContext caller;
    private final Callable<T> callback;
    /** The target's future, for {@link #cancel}: null until {@code invokeAsync} returned. */
    private volatile @Nullable CompletableFuture<Void> onTarget;

    private Ask(SyncContext caller, Callable<T> callback) {
        this.caller = caller;
        this.callback = callback;
    }

    static <T> CompletableFuture<T> start(RendererSyncContext target, Callable<T> callback) {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(callback, "callback");
        SyncContext caller = CallbackFrame.get().context;
        if (caller == null || caller == target) {
            return target.invokeAsync(callback); // no caller to answer in order with; or nested, now
        }
        Ask<T> ask = new Ask<>(caller, callback);
        CompletableFuture<Void> onTarget = target.invokeAsync(ask::runOnTarget);
        if (onTarget.isCompletedExceptionally() || !onTarget.isDone()) {
            // Fails only when runOnTarget did not run (it throws nothing): refused, or force-closed first.
            onTarget.whenComplete((ignored, refused) -> {
                if (refused != null) {
                    ask.answer(null, unwrap(refused), target.name());
                }
            });
        }
        ask.onTarget = onTarget;
        return ask;
    }

    /** On the target, inside its callback. */
    private void runOnTarget() {
        if (isDone()) {
            return; // cancelled by the caller before it started
        }
        SyncContext here = CallbackFrame.get().context;
        @Nullable T value = null;
        Throwable failure = null;
        try {
            value = callback.call();
        } catch (Throwable thrown) {
            failure = thrown;
        }
        if (here == caller) {
            settle(value, failure); // a proxy that resolved to the caller: it ran nested, as invokeAsync does
            return;
        }
        answer(value, failure, here == null ? "?" : here.name);
    }

    /** Queues the answer on the caller; if the caller refuses it, fails the future here. */
    private void answer(@Nullable T value, @Nullable Throwable failure, String from) {
        if (isDone()) {
            return;
        }
        try {
            caller.post(() -> settle(value, failure));
        } catch (RejectedExecutionException refused) {
            RejectedExecutionException lost = new RejectedExecutionException("The answer of context '" + from
                    + "' to an ask from context '" + caller.name + "' was refused by '" + caller.name + "' ("
                    + refused.getMessage() + ")" + (failure == null ? "; the asked callback did run" : ""), refused);
            if (failure != null) {
                lost.addSuppressed(failure);
            }
            completeExceptionally(lost);
        }
    }

    private void settle(@Nullable T value, @Nullable Throwable failure) {
        if (failure == null) {
            complete(value);
        } else {
            completeExceptionally(failure);
        }
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    /** Cancels the callback too, if it has not started on the target. */
    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        CompletableFuture<Void> queued = onTarget;
        if (cancelled && queued != null) {
            queued.cancel(false);
        }
        return cancelled;
    }

    @Override
    public @Nullable SyncContext neededContext() {
        return isDone() ? null : caller;
    }

    @Override
    public String toString() {
        return "ask from '" + caller.name + "' " + super.toString();
    }
}
