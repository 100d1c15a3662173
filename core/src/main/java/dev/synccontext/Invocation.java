package dev.synccontext;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Calls an {@code invokeAsync*} callback on the current thread and turns what happened into the
 * future the caller gets back. Never throws: a failure goes into the future, and a thrown
 * {@link java.util.concurrent.CancellationException} makes it cancelled.
 */
final class Invocation {

    static final int RUNNABLE = 0;
    static final int CALLABLE = 1;
    static final int STAGE = 2;

    private Invocation() {
    }

    @SuppressWarnings("unchecked")
    static <T> CompletableFuture<T> call(Object callback, int kind) {
        try {
            switch (kind) {
                case RUNNABLE:
                    ((Runnable) callback).run();
                    return (CompletableFuture<T>) SharedDoneFuture.INSTANCE;
                case CALLABLE:
                    T value = ((Callable<T>) callback).call();
                    return value == null ? (CompletableFuture<T>) SharedDoneFuture.INSTANCE
                            : CompletableFuture.completedFuture(value);
                default:
                    return mirror(((Callable<? extends CompletionStage<T>>) callback).call());
            }
        } catch (Throwable failure) {
            return CompletableFuture.failedFuture(failure);
        }
    }

    static CallbackOutcome outcome(CompletableFuture<?> future) {
        if (!future.isCompletedExceptionally()) {
            return CallbackOutcome.SUCCESS;
        }
        return future.isCancelled() ? CallbackOutcome.CANCELLED : CallbackOutcome.FAILURE;
    }

    /**
     * The future for a stage returned by a synchronous part that ran on the caller's thread. A
     * {@code CompletableFuture} is returned as it is, as Blazor returns the callback's own task when it
     * ran inline: no copy, no extra completion stage.
     */
    private static <T> CompletableFuture<T> mirror(CompletionStage<T> stage) {
        if (stage == null) {
            return CompletableFuture.failedFuture(new NullPointerException(
                    "invokeAsyncStage callback returned null instead of a CompletionStage"));
        }
        try {
            // A CompletableFuture returns itself; others (including a minimal stage) a linked future.
            return stage.toCompletableFuture();
        } catch (UnsupportedOperationException notSupported) {
            CompletableFuture<T> mirror = new CompletableFuture<>();
            stage.whenComplete((value, failure) -> {
                if (failure != null) {
                    mirror.completeExceptionally(failure);
                } else {
                    mirror.complete(value);
                }
            });
            return mirror;
        }
    }
}
