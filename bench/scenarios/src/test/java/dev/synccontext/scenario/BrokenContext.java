package dev.synccontext.scenario;

import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * A context that passes work to a real one, except where a subclass breaks it: the scenarios must
 * catch such a context. Every submission goes through {@link #submit(Runnable)} as an action that
 * forwards it.
 */
abstract class BrokenContext implements RendererSyncContext {

    final RendererSyncContext real;

    BrokenContext(RendererSyncContext real) {
        this.real = real;
    }

    /** Decides what happens to one forwarding action: run it, drop it, hold it back... */
    abstract void submit(Runnable forward);

    @Override
    public CompletableFuture<Void> invokeAsync(Runnable callback) {
        return forward(() -> real.invokeAsync(callback));
    }

    @Override
    public <T> CompletableFuture<T> invokeAsync(Callable<T> callback) {
        return forward(() -> real.invokeAsync(callback));
    }

    @Override
    public <T> CompletableFuture<T> invokeAsyncStage(Callable<? extends CompletionStage<T>> callback) {
        return forward(() -> real.invokeAsyncStage(callback));
    }

    /** The caller's future: settled as the real context's call settles, once {@link #submit} runs the call. */
    private <T> CompletableFuture<T> forward(Supplier<CompletableFuture<T>> call) {
        CompletableFuture<T> result = new CompletableFuture<>();
        submit(() -> call.get().whenComplete((v, e) -> settle(result, v, e)));
        return result;
    }

    private static <T> void settle(CompletableFuture<T> result, T value, Throwable failure) {
        if (failure != null) {
            result.completeExceptionally(failure);
        } else {
            result.complete(value);
        }
    }

    @Override
    public void post(Runnable callback) {
        submit(() -> real.post(callback));
    }

    @Override
    public void execute(Runnable callback) {
        post(callback);
    }

    @Override
    public void send(Runnable callback) {
        real.send(callback);
    }

    @Override
    public String name() {
        return real.name();
    }

    @Override
    public boolean checkAccess() {
        return real.checkAccess();
    }

    @Override
    public void assertAccess() {
        real.assertAccess();
    }

    @Override
    public int queueDepth() {
        return real.queueDepth();
    }

    @Override
    public long unhandledExceptionCount() {
        return real.unhandledExceptionCount();
    }

    @Override
    public long blockedCallbackCount() {
        return real.blockedCallbackCount();
    }

    @Override
    public boolean isClosed() {
        return real.isClosed();
    }

    @Override
    public void close() {
        real.close();
    }

    @Override
    public boolean awaitTermination(Duration timeout) throws InterruptedException {
        return real.awaitTermination(timeout);
    }

    @Override
    public List<Runnable> closeNow() {
        return real.closeNow();
    }

    /** Drops one submission in {@code every} (the {@code every}-th, 2·{@code every}-th, ...). */
    static final class Dropping extends BrokenContext {
        private final int every;
        private int seen;

        Dropping(RendererSyncContext real, int every) {
            super(real);
            this.every = every;
        }

        @Override
        synchronized void submit(Runnable forward) {
            if (++seen % every != 0) {
                forward.run();
            }
        }
    }

    /** Drops one submission in {@code every} but lies: the caller's future completes as if it ran. */
    static final class Lying extends BrokenContext {
        private final int every;
        private int seen;

        Lying(RendererSyncContext real, int every) {
            super(real);
            this.every = every;
        }

        @Override
        void submit(Runnable forward) {
            forward.run();
        }

        @Override
        public CompletableFuture<Void> invokeAsync(Runnable callback) {
            return drops() ? CompletableFuture.completedFuture(null) : super.invokeAsync(callback);
        }

        @Override
        public <T> CompletableFuture<T> invokeAsyncStage(Callable<? extends CompletionStage<T>> callback) {
            return drops() ? CompletableFuture.completedFuture(null) : super.invokeAsyncStage(callback);
        }

        @Override
        public void post(Runnable callback) {
            if (!drops()) {
                super.post(callback);
            }
        }

        /** Whether this call is the {@code every}-th one, which is dropped. */
        private synchronized boolean drops() {
            return ++seen % every == 0;
        }
    }

    /**
     * Swaps each thread's submissions in pairs: holds one back until the same thread submits again,
     * then forwards both, later first. (Calls from different threads have no order to break.)
     */
    static final class Reordering extends BrokenContext {
        private final ThreadLocal<Runnable> held = new ThreadLocal<>();

        Reordering(RendererSyncContext real) {
            super(real);
        }

        @Override
        void submit(Runnable forward) {
            Runnable earlier = held.get();
            if (earlier == null) {
                held.set(forward);
                return;
            }
            held.remove();
            forward.run();
            earlier.run();
        }
    }
}
