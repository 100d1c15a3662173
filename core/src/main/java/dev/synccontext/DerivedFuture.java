package dev.synccontext;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A future derived from a context's queued future ({@code thenApply}, {@code handle}, {@code copy},
 * ... on it or on another derived one): a plain {@code CompletableFuture} that remembers its source, and
 * the context its own stage runs on when it was made with {@code thenApplyAsync(…, context)} and the
 * like. A blocking wait on it goes through {@link WaitGraph} as a wait on the queued future does: while
 * the source is pending it needs what the source needs; once the source is done, it needs the context
 * its stage was posted to, if any. A composed stage ({@code thenCompose}) is not followed: once its
 * source is done, a wait on it needs no context as far as the graph knows.
 *
 * <p>It costs 8 bytes more than a plain {@code CompletableFuture} (the two references), on the derived
 * futures of queued calls only.
 */
final class DerivedFuture<T> extends WaitGuardedFuture<T> {

    private final Awaited source;
    private volatile @Nullable SyncContext runsOn;

    DerivedFuture(Awaited source) {
        this.source = source;
    }

    /** Tags {@code derived} (made by one of our futures) with the context its stage was posted to. */
    static <U> CompletableFuture<U> runsOn(CompletableFuture<U> derived, Executor executor) {
        if (executor instanceof SyncContext context && derived instanceof DerivedFuture<U> tagged) {
            tagged.runsOn = context;
        }
        return derived;
    }

    @Override
    public @Nullable SyncContext neededContext() {
        if (isDone()) {
            return null;
        }
        SyncContext bySource = source.neededContext();
        return bySource != null ? bySource : runsOn;
    }

    @Override
    public <U> CompletableFuture<U> thenApplyAsync(Function<? super T, ? extends U> fn, Executor executor) {
        return runsOn(super.thenApplyAsync(fn, executor), executor);
    }

    @Override
    public CompletableFuture<Void> thenAcceptAsync(Consumer<? super T> action, Executor executor) {
        return runsOn(super.thenAcceptAsync(action, executor), executor);
    }

    @Override
    public CompletableFuture<Void> thenRunAsync(Runnable action, Executor executor) {
        return runsOn(super.thenRunAsync(action, executor), executor);
    }

    @Override
    public <U> CompletableFuture<U> handleAsync(BiFunction<? super T, Throwable, ? extends U> fn,
            Executor executor) {
        return runsOn(super.handleAsync(fn, executor), executor);
    }

    @Override
    public CompletableFuture<T> whenCompleteAsync(BiConsumer<? super T, ? super Throwable> action,
            Executor executor) {
        return runsOn(super.whenCompleteAsync(action, executor), executor);
    }
}
