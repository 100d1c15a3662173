package dev.synccontext.bench;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A peer library's serial executor shaped like a context: {@code post} hands the callback to the
 * peer ({@link #handOff}), and so does an outside {@code invokeAsync*} ({@link #enter}, which a peer
 * that drains on the calling thread overrides); a call made inside the context runs at once. The
 * returned future completes where the callback ran.
 *
 * <p>Guarantee (the one {@link AlternativeContext} states): one callback at a time and FIFO per
 * submitting thread, because each task goes through the peer's own serial queue; a nested call runs at
 * once, because {@link #checkAccess()} is true inside a task. Where the peer has no thread check of
 * its own, {@link #asTask} wraps the callback so it runs with this adapter's owner token set: one
 * small object per hand-off that the peer itself does not allocate (the bytes per post of
 * {@code kotlinx-limited} and {@code grpc-sync} include it; {@code vertx-worker} needs a handler
 * object per call anyway and sets the token in it).
 */
abstract class HandOffContext extends AlternativeContext {

    private static final VarHandle OWNER;

    static {
        try {
            OWNER = MethodHandles.lookup().findVarHandle(HandOffContext.class, "owner", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The thread running this context's task, or null. Opaque reads and writes are enough: only the
     * thread that set it can read itself here (the peer orders one task after the other), and a thread
     * that cleared it sees its own clear.
     */
    @SuppressWarnings("unused") // through OWNER
    private Thread owner;

    HandOffContext(String name) {
        super(name);
    }

    /** Gives {@code task} to the peer's serial queue; the task never runs inside this call. */
    abstract void handOff(Runnable task);

    /** Where an outside {@code invokeAsync*} sends its task: the hand-off, unless the peer overrides it. */
    void enter(Runnable task) {
        handOff(task);
    }

    /** {@code callback} as this context's task: wrapped to set the owner token, or as is for a peer that knows its thread. */
    Runnable asTask(Runnable callback) {
        return () -> runOwned(callback);
    }

    /** Runs {@code callback} with the owner token set to the current thread. */
    final void runOwned(Runnable callback) {
        OWNER.setOpaque(this, Thread.currentThread());
        try {
            callback.run();
        } finally {
            OWNER.setOpaque(this, (Thread) null);
        }
    }

    /** True inside a task of this context (for adapters whose tasks run through {@link #runOwned}). */
    @Override
    public boolean checkAccess() {
        return OWNER.getOpaque(this) == Thread.currentThread();
    }

    @Override
    public final void post(Runnable callback) {
        handOff(asTask(callback));
    }

    @Override
    final CompletableFuture<Void> invokeRunnable(Runnable callback) {
        if (checkAccess()) {
            return runNow(callback);
        }
        CompletableFuture<Void> result = new CompletableFuture<>();
        enter(asTask(() -> {
            try {
                callback.run();
                result.complete(null);
            } catch (Throwable failure) {
                result.completeExceptionally(failure);
            }
        }));
        return result;
    }

    @Override
    public final <T> CompletableFuture<T> invokeAsyncStage(Callable<? extends CompletionStage<T>> callback) {
        if (checkAccess()) {
            return callNow(callback);
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        enter(asTask(() -> callNow(callback).whenComplete((value, failure) -> {
            if (failure != null) {
                result.completeExceptionally(failure);
            } else {
                result.complete(value);
            }
        })));
        return result;
    }
}
