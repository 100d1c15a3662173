package dev.synccontext;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A queued {@code invokeAsync*} call: the future returned to the caller. A blocking {@link #join()} or
 * {@link #get()} on it from inside a context that could never end (its callback is queued behind the
 * caller, is the caller, or waits through other contexts on the caller's) throws
 * {@link ContextDeadlockException} instead of hanging ({@link WaitGraph}); so do waits on the futures
 * derived from it ({@link DerivedFuture}).
 */
abstract sealed class QueuedFuture<T> extends QueuedCallback<T> implements Awaited permits QueuedCall, QueuedStage {

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
        if (isDone()) {
            return super.join();
        }
        WaitGraph.Wait wait = WaitGraph.enterOrThrow(this);
        try {
            return super.join();
        } finally {
            WaitGraph.leave(wait);
        }
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        if (isDone()) {
            return super.get();
        }
        WaitGraph.Wait wait = WaitGraph.enterOrThrow(this);
        try {
            return super.get();
        } finally {
            WaitGraph.leave(wait);
        }
    }

    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        if (isDone()) {
            return super.get(timeout, unit);
        }
        WaitGraph.Wait wait = WaitGraph.enterOrThrow(this);
        try {
            return super.get(timeout, unit);
        } finally {
            WaitGraph.leave(wait);
        }
    }

    // Derived futures remember where they come from, so that a wait on them is seen as well.

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new DerivedFuture<>(this);
    }

    @Override
    public <U> CompletableFuture<U> thenApplyAsync(Function<? super T, ? extends U> fn, Executor executor) {
        return DerivedFuture.runsOn(super.thenApplyAsync(fn, executor), executor);
    }

    @Override
    public CompletableFuture<Void> thenAcceptAsync(Consumer<? super T> action, Executor executor) {
        return DerivedFuture.runsOn(super.thenAcceptAsync(action, executor), executor);
    }

    @Override
    public CompletableFuture<Void> thenRunAsync(Runnable action, Executor executor) {
        return DerivedFuture.runsOn(super.thenRunAsync(action, executor), executor);
    }

    @Override
    public <U> CompletableFuture<U> handleAsync(BiFunction<? super T, Throwable, ? extends U> fn,
            Executor executor) {
        return DerivedFuture.runsOn(super.handleAsync(fn, executor), executor);
    }

    @Override
    public CompletableFuture<T> whenCompleteAsync(BiConsumer<? super T, ? super Throwable> action,
            Executor executor) {
        return DerivedFuture.runsOn(super.whenCompleteAsync(action, executor), executor);
    }
}
