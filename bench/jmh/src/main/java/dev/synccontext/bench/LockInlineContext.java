package dev.synccontext.bench;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The Vaadin session-lock model: {@code invokeAsync} takes a {@link ReentrantLock} and runs the
 * callback on the caller's thread while holding it (blocking when another thread holds it; the lock
 * is reentrant, so nested calls run at once). {@code post} queues the callback, as
 * {@code VaadinSession.access} does, and a task on {@link ForkJoinPool#commonPool()} takes the lock
 * and runs the queue in order.
 */
final class LockInlineContext extends AlternativeContext {

    private final ReentrantLock lock;
    private final ConcurrentLinkedQueue<Runnable> pending = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final Runnable drain = this::drain;

    /**
     * @param fair a fair lock ({@code lock-inline-fair}): a thread that releases and asks again queues behind
     *     the waiting ones, where the default lock lets it take the lock again first (it barges)
     */
    LockInlineContext(boolean fair) {
        super(fair ? "lock-inline-fair" : "lock-inline");
        this.lock = new ReentrantLock(fair);
    }

    @Override
    CompletableFuture<Void> invokeRunnable(Runnable callback) {
        lock.lock();
        try {
            return runNow(callback);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public <T> CompletableFuture<T> invokeAsyncStage(Callable<? extends CompletionStage<T>> callback) {
        lock.lock();
        try {
            return callNow(callback);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void post(Runnable callback) {
        pending.add(callback);
        if (drainScheduled.compareAndSet(false, true)) {
            ForkJoinPool.commonPool().execute(drain);
        }
    }

    private void drain() {
        lock.lock();
        try {
            drainScheduled.set(false); // a post after this line schedules the next drain
            for (Runnable next; (next = pending.poll()) != null; ) {
                try {
                    next.run();
                } catch (RuntimeException failure) {
                    failure.printStackTrace();
                }
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean checkAccess() {
        return lock.isHeldByCurrentThread();
    }
}
