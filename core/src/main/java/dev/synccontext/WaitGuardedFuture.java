package dev.synccontext;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@code CompletableFuture} whose blocking waits ({@code join}, {@code get}, timed {@code get}) go through
 * {@link WaitGraph}: a wait that would close a cycle of contexts throws {@link ContextDeadlockException}
 * instead of hanging; a done future answers at once without touching the graph. Its dependents are
 * {@link DerivedFuture}s, so a wait on {@code thenApply(f)} of it is guarded too. What a wait needs is the
 * subclass's {@link #neededContext()}.
 *
 * <p>It holds no field, so its subclasses cost what a plain {@code CompletableFuture} subclass costs.
 */
abstract sealed class WaitGuardedFuture<T> extends CompletableFuture<T> implements Awaited
        permits Ask, DerivedFuture {

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

    @Override
    public <U> CompletableFuture<U> newIncompleteFuture() {
        return new DerivedFuture<>(this);
    }
}
