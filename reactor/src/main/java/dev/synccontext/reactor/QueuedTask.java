package dev.synccontext.reactor;

import java.util.concurrent.atomic.AtomicInteger;
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

    QueuedTask(Runnable task, @Nullable ContextWorker worker) {
        this.task = task;
        this.worker = worker;
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
