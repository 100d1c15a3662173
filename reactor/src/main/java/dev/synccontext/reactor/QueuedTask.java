package dev.synccontext.reactor;

import java.util.concurrent.atomic.AtomicInteger;
import dev.synccontext.RendererSyncContext;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;

/**
 * A task posted to the context: runs once unless disposed first. The state is the inherited int,
 * moved only by CAS from {@link #WAITING}.
 */
@SuppressWarnings("serial") // never serialized; AtomicInteger is Serializable only by inheritance
final class QueuedTask extends AtomicInteger implements Runnable, Disposable {

    /** Posted, not started: the context may run it, {@link #dispose()} may cancel it. */
    private static final int WAITING = 0;
    /** The context runs it now (moved there by {@link #run()}). */
    private static final int RUNNING = 1;
    /** It ran (moved there by {@link #run()}). */
    private static final int DONE = 2;
    /** Disposed before it started; {@link #run()} skips it. */
    private static final int DISPOSED = 3;

    private final Runnable task;
    private final @Nullable ContextWorker worker;
    /** The blocked pipeline this task belongs to, told when it finished; null if none was blocked. */
    private final @Nullable BlockWatch<?> blocked;
    private final RendererSyncContext context;

    QueuedTask(Runnable task, @Nullable ContextWorker worker, @Nullable BlockWatch<?> blocked,
            RendererSyncContext context) {
        this.task = task;
        this.worker = worker;
        this.blocked = blocked;
        this.context = context;
    }

    /** Tells the blocked pipeline's watch (if any) that this task no longer needs its context. */
    void unwatch() {
        if (blocked != null) {
            blocked.finished(context);
        }
    }

    @Override
    public void run() {
        try {
            if (compareAndSet(WAITING, RUNNING)) {
                try {
                    task.run(); // a failure goes on to the context's unhandled-exception handler
                } finally {
                    set(DONE);
                }
            }
        } finally {
            unwatch();
            if (worker != null) {
                worker.finished(this);
            }
        }
    }

    @Override
    public void dispose() {
        compareAndSet(WAITING, DISPOSED);
    }

    @Override
    public boolean isDisposed() {
        return get() >= DONE;
    }
}
