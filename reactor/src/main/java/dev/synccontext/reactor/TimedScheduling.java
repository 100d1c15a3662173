package dev.synccontext.reactor;

import dev.synccontext.RendererSyncContext;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;

/**
 * What a {@link ContextScheduler} and its {@link ContextWorker}s share: a delayed or periodic task is
 * refused at once when the scheduler (or worker) is disposed or the context closed, otherwise it waits on
 * the context's clock and then reaches the context through {@link #hop}, the subclass's own way of
 * queueing a task. A delay of zero or less is an ordinary {@code schedule(task)}.
 */
abstract class TimedScheduling {

    final RendererSyncContext context;

    TimedScheduling(RendererSyncContext context) {
        this.context = context;
    }

    /** Runs or queues {@code task} now, as {@code Scheduler.schedule} and {@code Worker.schedule}. */
    public abstract Disposable schedule(Runnable task);

    /** Throws the rejection that names the context once this scheduler (or worker) was disposed. */
    abstract void rejectIfDisposed();

    /** How a task that fell due reaches the context. */
    abstract Disposable hop(Runnable task);

    /** The worker's tasks a timed task joins until it ends (disposed with the worker); null for the scheduler's own. */
    abstract Disposable.@Nullable Composite timedParent();

    public Disposable schedule(Runnable task, long delay, TimeUnit unit) {
        Objects.requireNonNull(task, "task");
        if (delay <= 0) {
            return schedule(task);
        }
        rejectIfDisposed();
        Rejections.rejectIfClosed(context);
        return DelayedTask.start(task, this::hop, context, timedParent(), unit.toNanos(delay));
    }

    public Disposable schedulePeriodically(Runnable task, long initialDelay, long period, TimeUnit unit) {
        Objects.requireNonNull(task, "task");
        rejectIfDisposed();
        Rejections.rejectIfClosed(context);
        return PeriodicTask.start(task, this::hop, context, timedParent(), unit.toNanos(initialDelay),
                unit.toNanos(period));
    }
}
