package dev.synccontext.scenario;

import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import org.jspecify.annotations.Nullable;

/**
 * One piece of work given to a {@link BaselineSyncContext}: the callback, the separate placeholder
 * future handed to the caller (none for posts and sends), and the continuation that the tail future
 * runs on the executor when the item is queued (the {@code ContinueWith} of the old Blazor design).
 */
final class BaselineItem implements BiFunction<Object, Throwable, Void> {

    static final int RUNNABLE = 0;
    static final int CALLABLE = 1;
    static final int STAGE = 2;
    static final int POST = 3;
    static final int SEND = 4;

    final BaselineSyncContext context;
    final int kind;
    final Object callback;
    /** The caller's future; null for posts and sends. */
    final @Nullable CompletableFuture<Object> placeholder;
    /** Set under the context's lock when {@code closeNow()} took the item away before it started. */
    boolean aborted;

    BaselineItem(BaselineSyncContext context, int kind, Object callback,
            @Nullable CompletableFuture<Object> placeholder) {
        this.context = context;
        this.kind = kind;
        this.callback = callback;
        this.placeholder = placeholder;
    }

    /** The queued hop: runs on the executor once every earlier item has finished. */
    @Override
    public @Nullable Void apply(@Nullable Object ignoredValue, @Nullable Throwable ignoredFailure) {
        if (context.start(this)) {
            context.runAsOwner(this);
        }
        return null;
    }

    /**
     * Runs the callback on the current thread, which owns the context, and completes the placeholder.
     * Never throws except for a {@code send}, whose failure is returned instead.
     */
    // NullAway: BaselineSyncContext.invoke gives every RUNNABLE, CALLABLE and STAGE item a placeholder.
    @SuppressWarnings({"unchecked", "NullAway"})
    @Nullable Throwable runCallback() {
        if (placeholder != null && placeholder.isDone()) {
            return null; // cancelled by its caller before its turn
        }
        try {
            switch (kind) {
                case RUNNABLE:
                    ((Runnable) callback).run();
                    placeholder.complete(null);
                    return null;
                case CALLABLE:
                    placeholder.complete(((Callable<Object>) callback).call());
                    return null;
                case STAGE:
                    CompletionStage<Object> stage = ((Callable<CompletionStage<Object>>) callback).call();
                    if (stage == null) {
                        placeholder.completeExceptionally(new NullPointerException(
                                "invokeAsyncStage callback returned null instead of a CompletionStage"));
                    } else {
                        stage.whenComplete((value, failure) -> {
                            if (failure != null) {
                                placeholder.completeExceptionally(failure);
                            } else {
                                placeholder.complete(value);
                            }
                        });
                    }
                    return null;
                case POST:
                    ((Runnable) callback).run();
                    return null;
                default:
                    ((Runnable) callback).run();
                    return null;
            }
        } catch (Throwable failure) {
            if (placeholder != null) {
                placeholder.completeExceptionally(failure);
            } else if (kind == POST) {
                context.reportUnhandled(failure);
            } else {
                return failure;
            }
            return null;
        }
    }

    /** closeNow(): the item will never run. Returns the posted runnable for a post, else null. */
    @Nullable Runnable abort(String contextName) {
        if (placeholder != null) {
            placeholder.completeExceptionally(new CancellationException(
                    "Context '" + contextName + "' was closed with closeNow() before this callback started"));
        }
        return kind == POST ? (Runnable) callback : null;
    }
}
