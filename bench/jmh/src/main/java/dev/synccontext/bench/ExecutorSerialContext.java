package dev.synccontext.bench;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;

import com.google.common.util.concurrent.MoreExecutors;

/**
 * A context made of a serial executor: every call hops to it, even when it is idle (there is no
 * inline path), and the returned future completes on the executor's thread. Two flavours, the ones
 * Java teams reach for: {@code single-thread} ({@link Executors#newSingleThreadExecutor()}, one
 * thread per context) and {@code guava-sequential}
 * ({@code MoreExecutors.newSequentialExecutor(ForkJoinPool.commonPool())}, a thread-less FIFO like
 * ours). The owner token is set around each task, so nested calls run at once.
 */
final class ExecutorSerialContext extends AlternativeContext {

    private final Executor serial;
    private final ExecutorService owned;
    private volatile Thread owner;

    private ExecutorSerialContext(String name, Executor serial, ExecutorService owned) {
        super(name);
        this.serial = serial;
        this.owned = owned;
    }

    static ExecutorSerialContext singleThread() {
        ExecutorService thread = Executors.newSingleThreadExecutor(task -> {
            Thread t = new Thread(task, "single-thread-context");
            t.setDaemon(true);
            return t;
        });
        return new ExecutorSerialContext("single-thread", thread, thread);
    }

    static ExecutorSerialContext guavaSequential() {
        return new ExecutorSerialContext("guava-sequential",
                MoreExecutors.newSequentialExecutor(ForkJoinPool.commonPool()), null);
    }

    @Override
    CompletableFuture<Void> invokeRunnable(Runnable callback) {
        if (checkAccess()) {
            return runNow(callback);
        }
        return CompletableFuture.runAsync(() -> owned(callback), serial);
    }

    @Override
    public <T> CompletableFuture<T> invokeAsyncStage(Callable<? extends CompletionStage<T>> callback) {
        if (checkAccess()) {
            return callNow(callback);
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        serial.execute(() -> owned(() -> callNow(callback).whenComplete((value, failure) -> {
            if (failure != null) {
                result.completeExceptionally(failure);
            } else {
                result.complete(value);
            }
        })));
        return result;
    }

    @Override
    public void post(Runnable callback) {
        serial.execute(() -> owned(callback));
    }

    private void owned(Runnable callback) {
        owner = Thread.currentThread();
        try {
            callback.run();
        } finally {
            owner = null;
        }
    }

    @Override
    public boolean checkAccess() {
        return owner == Thread.currentThread();
    }

    @Override
    public void close() {
        super.close();
        if (owned != null) {
            owned.shutdown();
        }
    }
}
