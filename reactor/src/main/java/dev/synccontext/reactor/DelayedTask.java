package dev.synccontext.reactor;

import dev.synccontext.RendererSyncContext;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;

/**
 * A task that waits on the {@linkplain ContextTimer timer} and is then handed to its context. The
 * reference holds what disposing must cancel: the timer's wait, then the queued task, or {@link #DISPOSED}.
 */
@SuppressWarnings("serial") // never serialized
final class DelayedTask extends TimedTask {

    private DelayedTask(Runnable task, Function<Runnable, Disposable> hop, RendererSyncContext context,
            Disposable.@Nullable Composite parent) {
        super(task, hop, context, parent);
    }

    /**
     * Starts the wait; when due, {@code hop} queues {@code task} on the context.
     *
     * @param parent the worker's tasks, disposed with the worker; null for the scheduler's own
     */
    static DelayedTask start(Runnable task, Function<Runnable, Disposable> hop, RendererSyncContext context,
            Disposable.@Nullable Composite parent, long delayNanos) {
        DelayedTask delayed = new DelayedTask(task, hop, context, parent);
        delayed.joinParent();
        Future<?> wait = ContextTimer.schedule(context, delayed::due, delayNanos);
        if (!delayed.compareAndSet(null, () -> wait.cancel(false)) && delayed.get() == DISPOSED) {
            wait.cancel(false); // disposed before the wait was recorded
        }
        return delayed;
    }

    /** On the timer's thread (the virtual clock's: the thread that moves time). */
    private void due() {
        Disposable waiting = get();
        if (waiting == DISPOSED) {
            return;
        }
        try {
            Disposable queued = hop.apply(task);
            if (!compareAndSet(waiting, queued)) {
                queued.dispose(); // disposed while it was being queued
            }
        } catch (RejectedExecutionException closedOrFull) {
            refusedWhenDue(closedOrFull);
        } finally {
            leaveParent();
        }
    }

    @Override
    public boolean isDisposed() {
        Disposable current = get();
        return current == DISPOSED || (current != null && current.isDisposed());
    }
}
