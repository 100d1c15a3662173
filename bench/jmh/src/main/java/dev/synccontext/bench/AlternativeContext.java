package dev.synccontext.bench;

import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * What a Java team would use instead of a {@code RendererSyncContext}, shaped like one so the very
 * same scenario code runs against it. Only what the scenarios call is offered: running work
 * ({@code invokeAsync*}, {@code post}), {@code checkAccess} and {@code close}. The rest throws
 * {@link UnsupportedOperationException}: these are benchmark adapters, not products.
 *
 * <p>Guarantee each subclass keeps: callbacks run one at a time, in submission order per submitting
 * thread, and a callback that calls the context again runs at once (no self-deadlock).
 */
abstract class AlternativeContext implements RendererSyncContext {

    private final String name;
    private volatile boolean closed;

    AlternativeContext(String name) {
        this.name = name;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final <T> CompletableFuture<T> invokeAsync(Callable<T> callback) {
        return invokeAsyncStage(() -> CompletableFuture.completedFuture(callback.call()));
    }

    @Override
    public final CompletableFuture<Void> invokeAsync(Runnable callback) {
        return invokeRunnable(callback);
    }

    abstract CompletableFuture<Void> invokeRunnable(Runnable callback);

    @Override
    public abstract <T> CompletableFuture<T> invokeAsyncStage(Callable<? extends CompletionStage<T>> callback);

    @Override
    public final void execute(Runnable callback) {
        post(callback);
    }

    @Override
    public final boolean isClosed() {
        return closed;
    }

    /** Marks the adapter closed; one that owns threads also stops them (and calls this). */
    @Override
    public void close() {
        closed = true;
    }

    @Override
    public final void assertAccess() {
        if (!checkAccess()) {
            throw new IllegalStateException("not inside " + name);
        }
    }

    /** Runs {@code callback} here and now, turning its outcome into a future, as a nested call does. */
    static <T> CompletableFuture<T> callNow(Callable<? extends CompletionStage<T>> callback) {
        try {
            CompletionStage<T> stage = callback.call();
            return stage instanceof CompletableFuture<T> f ? f : stage.toCompletableFuture();
        } catch (Throwable failure) {
            return CompletableFuture.failedFuture(failure);
        }
    }

    /**
     * Returned by every successful inline call, so the alternatives pay no allocation our context
     * does not pay either (a benchmark adapter may share it; callers here never obtrude it).
     */
    private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

    static CompletableFuture<Void> runNow(Runnable callback) {
        try {
            callback.run();
            return DONE;
        } catch (Throwable failure) {
            return CompletableFuture.failedFuture(failure);
        }
    }

    @Override
    public void send(Runnable callback) {
        throw unsupported("send");
    }

    @Override
    public int queueDepth() {
        throw unsupported("queueDepth");
    }

    @Override
    public long unhandledExceptionCount() {
        return 0;
    }

    @Override
    public long blockedCallbackCount() {
        return 0;
    }

    @Override
    public boolean awaitTermination(Duration timeout) {
        throw unsupported("awaitTermination");
    }

    @Override
    public List<Runnable> closeNow() {
        throw unsupported("closeNow");
    }

    private UnsupportedOperationException unsupported(String method) {
        return new UnsupportedOperationException(method + " is not part of the " + name
                + " benchmark adapter; the scenarios do not call it");
    }
}
