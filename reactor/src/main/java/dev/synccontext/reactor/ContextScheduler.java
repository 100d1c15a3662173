package dev.synccontext.reactor;

import dev.synccontext.ContextClock;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.registry.ContextProxy;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.scheduler.Scheduler;

/**
 * A Reactor {@link Scheduler} whose tasks run as callbacks of one {@link RendererSyncContext}: a
 * {@code publishOn(scheduler)} or {@code subscribeOn(scheduler)} stage runs on the context, serialized
 * with the context's other callbacks ({@code invokeAsync}, {@code post}, other pipelines), and sees
 * {@link RendererSyncContext#current()} return it.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>On the context.</b> Every task runs as a callback of the context, one at a time; each
 *       happens-before the next.</li>
 *   <li><b>At once when already there.</b> A task scheduled by a thread that runs a callback of this
 *       context right now ({@link RendererSyncContext#checkAccess()}) runs inside the {@code schedule}
 *       call, like {@code Schedulers.immediate()}; so a {@code publishOn} whose upstream already emits on
 *       the context adds no hop. A worker does so only when none of its own tasks is waiting or running
 *       (one scheduled from inside a task of the same worker is queued behind it, so it cannot recurse
 *       and cannot overtake). Otherwise the task is {@linkplain RendererSyncContext#post posted}: it
 *       never runs on the scheduling thread (a Netty event loop, a timer).</li>
 *   <li><b>FIFO per worker.</b> A worker's tasks run in the order they were scheduled. The scheduler's
 *       own {@code schedule} queues FIFO on the context too, except that a task scheduled from on the
 *       context runs at once.</li>
 *   <li><b>Delays on the context's clock, runs on the context.</b> A delayed or periodic task waits on
 *       the context's {@linkplain RendererSyncContext#clock() clock} and is posted to the context when due
 *       (a worker's, in its FIFO order from then on). On the system clock it waits on one shared daemon
 *       timer thread ({@code synccontext-reactor-timer}, which only hands tasks over); on a test kit's
 *       virtual clock, {@code kit.advanceBy} makes it due, so a {@code delayElements} of minutes takes
 *       milliseconds of a test. A periodic task runs at a
 *       fixed rate, never overlapping itself; a late run is followed by the next one as soon as it is
 *       due, as with {@code ScheduledExecutorService.scheduleAtFixedRate}.</li>
 *   <li><b>Cancellation.</b> Disposing a task that has not started keeps it from running; disposing a
 *       worker disposes every task it has not started. A running task is never interrupted.</li>
 *   <li><b>A closed context is an error signal.</b> When the context rejects a task (closed, or its
 *       queue is full), {@code schedule} throws its {@link RejectedExecutionException}, which names the
 *       context; Reactor's operators turn that into an {@code onError} downstream. A delayed task is
 *       rejected at once if the context is closed already; one that falls due after the context closed
 *       cannot reach anyone and goes to {@code Hooks.onErrorDropped} (Reactor's hook for errors that
 *       have no subscriber; by default logged) instead.</li>
 * </ul>
 * A queued task that throws is a failing callback of the context: its unhandled-exception handler gets
 * it (by default logged at ERROR and counted). A task that runs at once throws out of {@code schedule},
 * to the code on the context that called it, as with {@code Schedulers.immediate()}.
 *
 * <h2>What it does not do</h2>
 * {@link #dispose()} rejects new work on this scheduler and its workers; it does not close the context
 * and does not cancel tasks already handed to the scheduler itself (as {@code Schedulers.fromExecutor}).
 * {@link RendererSyncContext#closeNow()} drops queued tasks without running them; a pipeline that waited
 * for one is then never signalled (Reactor's executor schedulers behave the same on {@code shutdownNow}).
 *
 * <p>Thread-safe; one instance per context is enough, and instances are cheap.
 */
public final class ContextScheduler extends TimedScheduling implements Scheduler {

    private volatile boolean disposed;

    static {
        BlockingWaits.install(); // a block() on a context's thread is seen by the deadlock detection
    }

    private ContextScheduler(RendererSyncContext context) {
        super(context);
    }

    /**
     * A scheduler that runs its tasks on {@code context}. A {@link ContextProxy} (the starter's injected
     * {@code RendererSyncContext}) is resolved here, once: call this on the request thread or inside a
     * callback, and the scheduler keeps that session's context.
     */
    public static ContextScheduler of(RendererSyncContext context) {
        Objects.requireNonNull(context, "context");
        return new ContextScheduler(context instanceof ContextProxy proxy ? proxy.target() : context);
    }

    /** The context this scheduler runs its tasks on. */
    public RendererSyncContext context() {
        return context;
    }

    @Override
    public Disposable schedule(Runnable task) {
        Objects.requireNonNull(task, "task");
        rejectIfDisposed();
        if (context.checkAccess()) {
            task.run();
            return Disposables.disposed();
        }
        return hop(task);
    }

    /** Posts {@code task}; also how a delayed task that fell due reaches the context, even after {@link #dispose()}. */
    @Override
    Disposable hop(Runnable task) {
        BlockWatch<?> blocked = BlockingWaits.watchOf(task);
        if (blocked != null && !blocked.queueing(context)) {
            return Disposables.disposed(); // it closed a cycle: the blocked thread's block() throws instead
        }
        QueuedTask queued = new QueuedTask(task, null, blocked, context);
        try {
            context.post(queued);
        } catch (RejectedExecutionException closedOrFull) {
            queued.unwatch();
            throw closedOrFull;
        }
        return queued;
    }

    @Override
    Disposable.@Nullable Composite timedParent() {
        return null;
    }

    /**
     * Reactor's "current time" of this scheduler ({@code elapsed}, {@code timestamp}): the wall clock, as
     * Reactor's own schedulers, when the context is on the system clock; otherwise the context's clock
     * ({@link dev.synccontext.ContextClock#nanoTime()}, on its own origin, as Reactor's
     * {@code VirtualTimeScheduler} does), so durations measured by a pipeline agree with the delays that
     * a test kit's virtual time makes due.
     */
    @Override
    public long now(TimeUnit unit) {
        if (context.clock() == ContextClock.system()) {
            return Scheduler.super.now(unit);
        }
        return unit.convert(context.clock().nanoTime(), TimeUnit.NANOSECONDS);
    }

    @Override
    public Worker createWorker() {
        rejectIfDisposed();
        return new ContextWorker(this);
    }

    /** Rejects new work from now on; see the class comment for what it does not do. */
    @Override
    public void dispose() {
        disposed = true;
    }

    @Override
    public boolean isDisposed() {
        return disposed;
    }

    @Override
    void rejectIfDisposed() {
        if (disposed) {
            throw Rejections.disposed("scheduler", context);
        }
    }

    @Override
    public String toString() {
        return "ContextScheduler(" + context.name() + ")";
    }
}
