package dev.synccontext.reactor;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.synccontext.ContextDeadlockException;
import dev.synccontext.ContextWaits;
import dev.synccontext.RendererSyncContext;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.Scannable;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

/**
 * A Reactor {@code block()} made from inside a context, seen by the deadlock detection: the subscriber
 * that {@link BlockingWaits} puts in front of Reactor's blocking subscriber. From its creation, on the
 * blocking thread right before the pipeline is subscribed, until the blocking subscriber is signalled,
 * it is a recorded wait ({@link ContextWaits}) whose need is the context of a task of this pipeline that
 * a {@link ContextScheduler} has queued and not finished (the pipeline cannot signal before that task
 * ran), else what a context's future this pipeline was made from ({@code Mono.fromFuture}) needs.
 *
 * <p>When queueing a task of this pipeline closes a cycle, the task is not queued and the blocked
 * thread's {@code block()} throws the {@link ContextDeadlockException}: {@link #fail} cancels the
 * pipeline and signals the error to the blocking subscriber.
 */
final class BlockWatch<T> implements CoreSubscriber<T>, Subscription, Scannable, ContextWaits.Need {

    /** Watches whose wait is still recorded: the queued paths look for one only while this is not zero. */
    static final AtomicInteger LIVE = new AtomicInteger();

    private final CoreSubscriber<? super T> actual;
    /** Reactor's subscriber for {@code Mono.block()} and {@code blockFirst()}: the first value ends the wait. */
    private final boolean endsOnFirstValue;
    private final List<Future<?>> futures;
    /** Contexts on which a task of this pipeline is queued or running, with how many. */
    @GuardedBy("this")
    private final Map<RendererSyncContext, Integer> queuedOn = new LinkedHashMap<>();
    private final AtomicBoolean recorded = new AtomicBoolean(true);
    private final AtomicBoolean failed = new AtomicBoolean();
    private final ContextWaits.Wait wait;
    private volatile @Nullable Subscription upstream;

    /**
     * Records the wait on the current thread.
     *
     * @throws ContextDeadlockException if it closes a cycle already (a future it waits on needs a context
     *     that waits on this thread's)
     */
    BlockWatch(CoreSubscriber<? super T> actual, boolean endsOnFirstValue, List<Future<?>> futures) {
        this.actual = actual;
        this.endsOnFirstValue = endsOnFirstValue;
        this.futures = futures;
        ContextWaits.Wait entered = ContextWaits.enter(this);
        this.wait = entered;
        if (entered.isRecorded()) {
            LIVE.incrementAndGet();
        } else {
            recorded.set(false);
        }
    }

    @Override
    public synchronized @Nullable RendererSyncContext neededContext() {
        for (Map.Entry<RendererSyncContext, Integer> queued : queuedOn.entrySet()) {
            if (queued.getValue() > 0) {
                return queued.getKey();
            }
        }
        for (Future<?> future : futures) {
            RendererSyncContext needed = ContextWaits.neededBy(future);
            if (needed != null) {
                return needed;
            }
        }
        return null;
    }

    /**
     * A task of this pipeline is about to be queued on {@code context}: records it, then checks for a
     * cycle. Returns false when the task must not be queued: the wait closed a cycle and the blocked
     * thread has been told ({@link #fail}).
     */
    boolean queueing(RendererSyncContext context) {
        synchronized (this) {
            queuedOn.merge(context, 1, Integer::sum);
        }
        ContextDeadlockException deadlock = ContextWaits.cycle(wait);
        if (deadlock == null) {
            return true;
        }
        finished(context);
        fail(deadlock);
        return false;
    }

    /** A task queued with {@link #queueing} ran, was skipped, or was refused. */
    synchronized void finished(RendererSyncContext context) {
        queuedOn.computeIfPresent(context, (c, n) -> n > 1 ? n - 1 : null);
    }

    /** Ends the wait with {@code deadlock}: the blocked {@code block()} throws it. */
    void fail(ContextDeadlockException deadlock) {
        if (!failed.compareAndSet(false, true)) {
            return;
        }
        unrecord();
        Subscription s = upstream;
        if (s != null) {
            s.cancel();
        }
        actual.onError(deadlock);
    }

    private void unrecord() {
        if (recorded.compareAndSet(true, false)) {
            wait.close();
            LIVE.decrementAndGet();
        }
    }

    @Override
    public void onSubscribe(Subscription s) {
        upstream = s;
        actual.onSubscribe(this);
    }

    @Override
    public void onNext(T value) {
        if (failed.get()) {
            Operators.onNextDropped(value, actual.currentContext());
            return;
        }
        if (endsOnFirstValue) {
            unrecord(); // before the blocked thread can wake up and go on
        }
        actual.onNext(value);
    }

    @Override
    public void onError(Throwable error) {
        unrecord();
        if (failed.get()) {
            Operators.onErrorDropped(error, actual.currentContext());
            return;
        }
        actual.onError(error);
    }

    @Override
    public void onComplete() {
        unrecord();
        if (!failed.get()) {
            actual.onComplete();
        }
    }

    @Override
    public void request(long n) {
        Subscription s = upstream;
        if (s != null) {
            s.request(n);
        }
    }

    @Override
    public void cancel() {
        unrecord(); // block() disposes on interrupt and on timeout
        Subscription s = upstream;
        if (s != null) {
            s.cancel();
        }
    }

    @Override
    public Context currentContext() {
        return actual.currentContext();
    }

    @Override
    public @Nullable Object scanUnsafe(Attr key) {
        if (key == Attr.ACTUAL) {
            return actual;
        }
        if (key == Attr.PARENT) {
            return upstream;
        }
        if (key == Attr.RUN_STYLE) {
            return Attr.RunStyle.SYNC;
        }
        return null;
    }
}
