package dev.synccontext.reactor;

import dev.synccontext.RendererSyncContext;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

/**
 * What a delayed and a periodic task share: the task, how it reaches its context when due ({@code hop}),
 * the worker's tasks it belongs to until it ends, and the reference that holds what disposing must cancel
 * (the timer's wait, then the queued run) or {@link #DISPOSED}. Disposing is final: it cancels what is
 * pending and leaves the worker's tasks.
 */
@SuppressWarnings("serial") // never serialized
abstract sealed class TimedTask extends AtomicReference<@Nullable Disposable> implements Disposable
        permits DelayedTask, PeriodicTask {

    static final Disposable DISPOSED = Disposables.disposed();

    final Runnable task;
    final Function<Runnable, Disposable> hop;
    final RendererSyncContext context;
    private final Disposable.@Nullable Composite parent;

    TimedTask(Runnable task, Function<Runnable, Disposable> hop, RendererSyncContext context,
            Disposable.@Nullable Composite parent) {
        this.task = task;
        this.hop = hop;
        this.context = context;
        this.parent = parent;
    }

    /** Joins the worker's tasks, so that disposing the worker disposes it; refused once the worker is disposed. */
    final void joinParent() {
        if (parent != null && !parent.add(this)) {
            throw Rejections.disposed("worker", context);
        }
    }

    final void leaveParent() {
        if (parent != null) {
            parent.remove(this);
        }
    }

    /** The context refused the run that fell due: reported as dropped, unless disposed meanwhile. */
    final void refusedWhenDue(RejectedExecutionException closedOrFull) {
        if (get() != DISPOSED) {
            Operators.onErrorDropped(Rejections.refusedWhenDue(context, closedOrFull), Context.empty());
        }
    }

    @Override
    public final void dispose() {
        Disposable previous = getAndSet(DISPOSED);
        if (previous != null && previous != DISPOSED) {
            previous.dispose();
        }
        leaveParent();
    }
}
