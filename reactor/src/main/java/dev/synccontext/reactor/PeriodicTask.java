package dev.synccontext.reactor;

import dev.synccontext.RendererSyncContext;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

/**
 * A task run at a fixed rate on its context: each run, on the context, arms the timer for the next due
 * time, so runs never overlap and a late run is followed by the next as soon as that is due (the
 * semantics of {@code scheduleAtFixedRate}; a run that throws ends the period there too). The reference holds what disposing must cancel: the
 * timer's wait or the queued run, or {@link DelayedTask#DISPOSED}.
 */
@SuppressWarnings("serial") // never serialized
final class PeriodicTask extends AtomicReference<@Nullable Disposable> implements Disposable {

    private static final Disposable DISPOSED = DelayedTask.DISPOSED;

    private final Runnable task;
    private final Function<Runnable, Disposable> hop;
    private final RendererSyncContext context;
    private final Disposable.@Nullable Composite parent;
    private final long periodNanos;
    /** Written before each wait is armed and read after it, so the timer's hand-off orders it. */
    private long nextDueNanos;

    private PeriodicTask(Runnable task, Function<Runnable, Disposable> hop, RendererSyncContext context,
            Disposable.@Nullable Composite parent, long periodNanos) {
        this.task = task;
        this.hop = hop;
        this.context = context;
        this.parent = parent;
        this.periodNanos = periodNanos;
    }

    static PeriodicTask start(Runnable task, Function<Runnable, Disposable> hop, RendererSyncContext context,
            Disposable.@Nullable Composite parent, long initialDelayNanos, long periodNanos) {
        PeriodicTask periodic = new PeriodicTask(task, hop, context, parent, Math.max(0, periodNanos));
        if (parent != null && !parent.add(periodic)) {
            throw Rejections.disposed("worker", context);
        }
        periodic.nextDueNanos = ContextTimer.nanoTime(context) + Math.max(0, initialDelayNanos);
        periodic.arm(Math.max(0, initialDelayNanos));
        return periodic;
    }

    private void arm(long delayNanos) {
        Future<?> wait = ContextTimer.schedule(context, this::due, delayNanos);
        Disposable cancelWait = () -> wait.cancel(false);
        for (Disposable current = get(); ; current = get()) {
            if (current == DISPOSED) {
                wait.cancel(false);
                return;
            }
            if (compareAndSet(current, cancelWait)) {
                return;
            }
        }
    }

    /** On the timer thread. */
    private void due() {
        Disposable waiting = get();
        if (waiting == DISPOSED) {
            return;
        }
        try {
            Disposable queued = hop.apply(this::runAndRearm);
            // Fails if the run has already re-armed (keep its wait) or the task was disposed (drop the run).
            if (!compareAndSet(waiting, queued) && get() == DISPOSED) {
                queued.dispose();
            }
        } catch (RejectedExecutionException closedOrFull) {
            if (get() != DISPOSED) {
                Operators.onErrorDropped(Rejections.refusedWhenDue(context, closedOrFull), Context.empty());
            }
            leaveParent();
        }
    }

    /** On the context. */
    private void runAndRearm() {
        if (get() == DISPOSED) {
            return;
        }
        try {
            task.run();
        } catch (RuntimeException | Error failure) {
            dispose(); // a run that throws ends the period, as with scheduleAtFixedRate
            throw failure; // to the context's unhandled-exception handler
        }
        long now = ContextTimer.nanoTime(context);
        nextDueNanos = periodNanos == 0 ? now : nextDueNanos + periodNanos;
        arm(Math.max(0, nextDueNanos - now));
    }

    private void leaveParent() {
        if (parent != null) {
            parent.remove(this);
        }
    }

    @Override
    public void dispose() {
        Disposable previous = getAndSet(DISPOSED);
        if (previous != null && previous != DISPOSED) {
            previous.dispose();
        }
        leaveParent();
    }

    @Override
    public boolean isDisposed() {
        return get() == DISPOSED;
    }
}
