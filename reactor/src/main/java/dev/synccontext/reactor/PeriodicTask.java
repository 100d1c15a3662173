package dev.synccontext.reactor;

import dev.synccontext.RendererSyncContext;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;

/**
 * A task run at a fixed rate on its context: each run, on the context, arms the timer for the next due
 * time, so runs never overlap and a late run is followed by the next as soon as that is due (the
 * semantics of {@code scheduleAtFixedRate}; a run that throws ends the period there too). The reference holds what disposing must cancel: the
 * timer's wait or the queued run, or {@link #DISPOSED}.
 */
@SuppressWarnings("serial") // never serialized
final class PeriodicTask extends TimedTask {

    private final long periodNanos;
    /** Written before each wait is armed and read after it, so the timer's hand-off orders it. */
    private long nextDueNanos;

    private PeriodicTask(Runnable task, Function<Runnable, Disposable> hop, RendererSyncContext context,
            Disposable.@Nullable Composite parent, long periodNanos) {
        super(task, hop, context, parent);
        this.periodNanos = periodNanos;
    }

    static PeriodicTask start(Runnable task, Function<Runnable, Disposable> hop, RendererSyncContext context,
            Disposable.@Nullable Composite parent, long initialDelayNanos, long periodNanos) {
        PeriodicTask periodic = new PeriodicTask(task, hop, context, parent, Math.max(0, periodNanos));
        periodic.joinParent();
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
            refusedWhenDue(closedOrFull);
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

    @Override
    public boolean isDisposed() {
        return get() == DISPOSED;
    }
}
