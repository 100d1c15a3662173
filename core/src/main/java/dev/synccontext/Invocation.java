package dev.synccontext;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * The three kinds of {@code invokeAsync*} callback, each with all of its own code: how to call it, how
 * to decorate it, which queue node holds it, and what future a call on the caller's thread returns. The
 * callback travels as an {@code Object} beside its kind, so one path serves all three; the casts back
 * happen here, in the constant that knows the type.
 */
enum Invocation {

    /** {@code invokeAsync(Runnable)}: run as a callable that returns null. */
    RUNNABLE {
        @Override
        @Nullable Object run(Object callback) {
            ((Runnable) callback).run();
            return null;
        }

        @Override
        Object decorate(CallbackDecorator decorator, Object callback) {
            return decorator.decorate((Runnable) callback);
        }
    },

    /** {@code invokeAsync(Callable)}. */
    CALLABLE,

    /** {@code invokeAsyncStage}: the call returns the stage the future mirrors. */
    STAGE {
        @Override
        <T> QueuedFuture<T> newNode(SyncContext context, Object callback) {
            return new QueuedStage<>(context, callback);
        }

        @Override
        @SuppressWarnings("unchecked")
        <T> CompletableFuture<T> completedInline(@Nullable Object result) {
            return mirror((CompletionStage<T>) result);
        }
    };

    /** Calls the callback: its value (null for a runnable); for a stage, the stage it returned. */
    @Nullable Object run(Object callback) throws Exception {
        return ((Callable<?>) callback).call();
    }

    /** The callback as the context's decorator wraps it. */
    Object decorate(CallbackDecorator decorator, Object callback) {
        return decorator.decorate((Callable<?>) callback);
    }

    /**
     * The node, at once the future the caller gets, that queues this callback on {@code context}:
     * decorated with the context's decorator, if any (which may throw), and maybe chosen for sampling.
     */
    final <T> QueuedFuture<T> queued(SyncContext context, Object callback) {
        CallbackDecorator decorator = context.settings.decorator;
        QueuedFuture<T> node = newNode(context, decorator == null ? callback : decorate(decorator, callback));
        CallbackRunner.markSample(context, node);
        return node;
    }

    /** The node for this (already decorated) callback. */
    <T> QueuedFuture<T> newNode(SyncContext context, Object callback) {
        return new QueuedCall<>(context, callback, this);
    }

    /**
     * Calls the callback on the current thread and turns what happened into the future the caller gets
     * back. Never throws: a failure goes into the future, and a thrown
     * {@link java.util.concurrent.CancellationException} makes it cancelled.
     */
    final <T> CompletableFuture<T> call(Object callback) {
        try {
            return completedInline(run(callback));
        } catch (Throwable failure) {
            return CompletableFuture.failedFuture(failure);
        }
    }

    /**
     * The future for what a call on the caller's thread returned: the shared done future for null (so
     * the idle {@code invokeAsync(Runnable)} allocates nothing), else a completed one.
     */
    @SuppressWarnings("unchecked")
    <T> CompletableFuture<T> completedInline(@Nullable Object result) {
        return result == null ? (CompletableFuture<T>) SharedDoneFuture.INSTANCE
                : CompletableFuture.completedFuture((T) result);
    }

    static CallbackOutcome outcome(CompletableFuture<?> future) {
        if (!future.isCompletedExceptionally()) {
            return CallbackOutcome.SUCCESS;
        }
        return future.isCancelled() ? CallbackOutcome.CANCELLED : CallbackOutcome.FAILURE;
    }

    /** Completes {@code future} as the stage it is given to completes: the mirror of a returned stage. */
    static <T> BiConsumer<T, @Nullable Throwable> completing(CompletableFuture<T> future) {
        return (value, failure) -> {
            if (failure != null) {
                future.completeExceptionally(failure);
            } else {
                future.complete(value);
            }
        };
    }

    /** What a future learns when an {@code invokeAsyncStage} callback returned no stage, inline or queued. */
    static NullPointerException nullStage() {
        return new NullPointerException("invokeAsyncStage callback returned null instead of a CompletionStage");
    }

    /**
     * The future for a stage returned by a synchronous part that ran on the caller's thread. A
     * {@code CompletableFuture} is returned as it is, as Blazor returns the callback's own task when it
     * ran inline: no copy, no extra completion stage.
     */
    private static <T> CompletableFuture<T> mirror(@Nullable CompletionStage<T> stage) {
        if (stage == null) {
            return CompletableFuture.failedFuture(nullStage());
        }
        try {
            // A CompletableFuture returns itself; others (including a minimal stage) a linked future.
            return stage.toCompletableFuture();
        } catch (UnsupportedOperationException notSupported) {
            CompletableFuture<T> mirror = new CompletableFuture<>();
            stage.whenComplete(completing(mirror));
            return mirror;
        }
    }
}
