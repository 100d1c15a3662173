package dev.synccontext.reactor;

import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.scheduler.Scheduler;

/**
 * A worker of a {@link ContextScheduler}: FIFO over its own tasks, at once when scheduled on the context
 * while none of its tasks waits or runs (the rules are stated on {@link ContextScheduler}).
 */
final class ContextWorker extends TimedScheduling implements Scheduler.Worker {

    private final ContextScheduler scheduler;
    /** The tasks to dispose with the worker: queued and delayed ones not yet finished. */
    private final Disposable.Composite tasks = Disposables.composite();
    /** Tasks accepted and not finished (waiting, running, or running at once); 0 lets a task run at once. */
    private final AtomicInteger pending = new AtomicInteger();

    ContextWorker(ContextScheduler scheduler) {
        super(scheduler.context());
        this.scheduler = scheduler;
    }

    @Override
    public Disposable schedule(Runnable task) {
        Objects.requireNonNull(task, "task");
        rejectIfDisposed();
        return hop(task);
    }

    /**
     * Runs {@code task} at once or queues it. Also how a delayed task that fell due reaches the context:
     * the scheduler's {@code dispose()} does not stop it (the worker's own does, by disposing it).
     */
    @Override
    Disposable hop(Runnable task) {
        // The CAS, not a read: a task another thread has just counted (and is about to post) comes first.
        if (context.checkAccess() && pending.compareAndSet(0, 1)) {
            try {
                task.run();
            } finally {
                pending.decrementAndGet();
            }
            return Disposables.disposed();
        }
        BlockWatch<?> blocked = BlockingWaits.watchOf(task);
        if (blocked != null && !blocked.queueing(context)) {
            return Disposables.disposed(); // it closed a cycle: the blocked thread's block() throws instead
        }
        pending.incrementAndGet();
        QueuedTask queued = new QueuedTask(task, this, blocked, context);
        if (!tasks.add(queued)) { // the worker was disposed meanwhile
            pending.decrementAndGet();
            queued.unwatch();
            throw Rejections.disposed("worker", context);
        }
        try {
            context.post(queued);
        } catch (RejectedExecutionException closedOrFull) {
            finished(queued);
            queued.unwatch();
            throw closedOrFull;
        }
        return queued;
    }

    @Override
    Disposable.Composite timedParent() {
        return tasks;
    }

    /** Called once per queued task when it ran or was skipped as disposed. */
    void finished(QueuedTask task) {
        tasks.remove(task);
        pending.decrementAndGet();
    }

    @Override
    public void dispose() {
        tasks.dispose();
    }

    @Override
    public boolean isDisposed() {
        return tasks.isDisposed();
    }

    @Override
    void rejectIfDisposed() {
        scheduler.rejectIfDisposed();
        if (tasks.isDisposed()) {
            throw Rejections.disposed("worker", context);
        }
    }

    @Override
    public String toString() {
        return "ContextWorker(" + context.name() + ")";
    }
}
