package dev.synccontext.reactor;

import dev.synccontext.RendererSyncContext;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.scheduler.Scheduler;

/**
 * A worker of a {@link ContextScheduler}: FIFO over its own tasks, at once when scheduled on the context
 * while none of its tasks waits or runs (the rules are stated on {@link ContextScheduler}).
 */
final class ContextWorker implements Scheduler.Worker {

    private final ContextScheduler scheduler;
    private final RendererSyncContext context;
    /** The tasks to dispose with the worker: queued and delayed ones not yet finished. */
    private final Disposable.Composite tasks = Disposables.composite();
    /** Tasks accepted and not finished (waiting, running, or running at once); 0 lets a task run at once. */
    private final AtomicInteger pending = new AtomicInteger();

    ContextWorker(ContextScheduler scheduler) {
        this.scheduler = scheduler;
        this.context = scheduler.context();
    }

    @Override
    public Disposable schedule(Runnable task) {
        Objects.requireNonNull(task, "task");
        rejectIfDisposed();
        return accept(task);
    }

    /**
     * Runs {@code task} at once or queues it. Also how a delayed task that fell due reaches the context:
     * the scheduler's {@code dispose()} does not stop it (the worker's own does, by disposing it).
     */
    private Disposable accept(Runnable task) {
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
    public Disposable schedule(Runnable task, long delay, TimeUnit unit) {
        Objects.requireNonNull(task, "task");
        if (delay <= 0) {
            return schedule(task);
        }
        rejectIfDisposed();
        Rejections.rejectIfClosed(context);
        return DelayedTask.start(task, this::accept, context, tasks, unit.toNanos(delay));
    }

    @Override
    public Disposable schedulePeriodically(Runnable task, long initialDelay, long period, TimeUnit unit) {
        Objects.requireNonNull(task, "task");
        rejectIfDisposed();
        Rejections.rejectIfClosed(context);
        return PeriodicTask.start(task, this::accept, context, tasks, unit.toNanos(initialDelay), unit.toNanos(period));
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

    private void rejectIfDisposed() {
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
