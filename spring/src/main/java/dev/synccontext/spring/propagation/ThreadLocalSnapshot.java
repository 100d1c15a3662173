package dev.synccontext.spring.propagation;

import io.micrometer.context.ThreadLocalAccessor;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;

/**
 * The values of a fixed list of thread-locals, taken on the thread that queued a callback, and the
 * wrappers that put them in place around that callback on the thread that runs it.
 *
 * <p>{@code values[i]} belongs to {@code accessors[i]}; {@code null} means "no value", and a null
 * {@code values} array means "no value at all" (one shared instance per decorator, so that capturing
 * nothing allocates nothing). While a wrapped callback runs, the accessors whose value was captured are
 * set, every other accessor that holds a value on the running thread is cleared, and afterwards every
 * accessor touched is restored to what it held before, in reverse order (so scopes opened by
 * {@code setValue} close innermost first). Accessors with no value on either side are not touched.
 *
 * <p>Immutable; one instance may wrap any number of callbacks on any threads.
 */
final class ThreadLocalSnapshot {

    private final ThreadLocalAccessor<Object>[] accessors;
    private final @Nullable Object @Nullable [] values;

    ThreadLocalSnapshot(ThreadLocalAccessor<Object>[] accessors, @Nullable Object @Nullable [] values) {
        this.accessors = accessors;
        this.values = values;
    }

    Runnable wrap(Runnable callback) {
        return new PropagatingRunnable(this, callback);
    }

    <T> Callable<T> wrap(Callable<T> callback) {
        return new PropagatingCallable<>(this, callback);
    }

    /**
     * Sets the captured values on this thread and clears the others that hold one.
     *
     * @return what the touched accessors held before (null entries: nothing), or null when none of them
     *     held anything, which is the common case on a pool thread and allocates nothing
     */
    private @Nullable Object @Nullable [] enter() {
        @Nullable Object[] previous = null;
        int i = 0;
        try {
            for (; i < accessors.length; i++) {
                Object value = values == null ? null : values[i];
                Object held = accessors[i].getValue();
                if (held != null) {
                    if (previous == null) {
                        previous = new Object[accessors.length];
                    }
                    previous[i] = held;
                }
                if (value != null) {
                    accessors[i].setValue(value);
                } else if (held != null) {
                    accessors[i].setValue();
                }
            }
            return previous;
        } catch (RuntimeException | Error failure) {
            exit(previous, i); // undo what was set before the accessor that failed
            throw failure;
        }
    }

    /** Restores accessors {@code [0, end)} that {@link #enter} touched, last first. */
    private void exit(@Nullable Object @Nullable [] previous, int end) {
        for (int i = end - 1; i >= 0; i--) {
            Object held = previous == null ? null : previous[i];
            if (held != null) {
                accessors[i].restore(held);
            } else if (values != null && values[i] != null) {
                accessors[i].restore();
            }
        }
    }

    /** A callback that runs with the snapshot's values set, then restores the thread's own; it prints as the callback. */
    private abstract static class Propagating<C> {

        final ThreadLocalSnapshot snapshot;
        final C callback;

        Propagating(ThreadLocalSnapshot snapshot, C callback) {
            this.snapshot = snapshot;
            this.callback = callback;
        }

        @Override
        public String toString() {
            return callback.toString();
        }
    }

    private static final class PropagatingRunnable extends Propagating<Runnable> implements Runnable {

        PropagatingRunnable(ThreadLocalSnapshot snapshot, Runnable callback) {
            super(snapshot, callback);
        }

        @Override
        public void run() {
            @Nullable Object[] previous = snapshot.enter();
            try {
                callback.run();
            } finally {
                snapshot.exit(previous, snapshot.accessors.length);
            }
        }
    }

    private static final class PropagatingCallable<T> extends Propagating<Callable<T>> implements Callable<T> {

        PropagatingCallable(ThreadLocalSnapshot snapshot, Callable<T> callback) {
            super(snapshot, callback);
        }

        @Override
        public T call() throws Exception {
            @Nullable Object[] previous = snapshot.enter();
            try {
                return callback.call();
            } finally {
                snapshot.exit(previous, snapshot.accessors.length);
            }
        }
    }
}
