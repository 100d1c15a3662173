package dev.synccontext.spring.propagation;

import dev.synccontext.CallbackDecorator;
import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ThreadLocalAccessor;
import io.micrometer.context.integration.Slf4jThreadLocalAccessor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import org.springframework.util.ClassUtils;

/**
 * Carries the submitter's thread-locals over to the thread that runs a queued callback, with Micrometer
 * context propagation's {@link ThreadLocalAccessor}s: captured when the callback is queued, set around
 * it when it runs, and restored (so cleared, on a pool thread) afterwards. Thread-locals that were not
 * captured are cleared while the callback runs, so nothing leaks in from the previous task of a pool
 * thread.
 *
 * <p>What travels: every {@link ThreadLocalAccessor} registered on {@link ContextRegistry#getInstance()}
 * when this decorator is created (Micrometer's observation, Spring Security's context when present,
 * anything the application registered) plus the SLF4J MDC. Callbacks that run on the submitter's own
 * thread are never wrapped: they already see its thread-locals.
 *
 * <h2>What it costs</h2>
 * The accessors are read straight into an array, only accessors that hold a value are set and
 * restored, and a submitter with no value in any of them shares one empty snapshot, so a queued callback
 * with nothing to propagate costs one small wrapper and a read of each accessor on both threads.
 * Micrometer's own {@code ContextSnapshotFactory} builds a map per capture and per run (about 320 bytes a
 * callback with nothing to propagate, measured by {@code StarterContextBenchmark} in {@code bench/jmh};
 * its README has the figures). What propagating a value costs beyond that is the accessor's own: opening
 * an observation scope, copying the MDC into the running thread.
 *
 * <p>Thread-safe: the accessor list is fixed at construction.
 */
public final class ContextPropagationDecorator implements CallbackDecorator {

    private final ThreadLocalAccessor<Object>[] accessors;
    private final ThreadLocalSnapshot empty;

    public ContextPropagationDecorator() {
        this(ContextRegistry.getInstance());
    }

    @SuppressWarnings("unchecked")
    public ContextPropagationDecorator(ContextRegistry registry) {
        List<ThreadLocalAccessor<?>> found = new ArrayList<>(registry.getThreadLocalAccessors());
        boolean mdc = found.stream().anyMatch(accessor -> Slf4jThreadLocalAccessor.KEY.equals(accessor.key()));
        if (!mdc && ClassUtils.isPresent("org.slf4j.MDC", getClass().getClassLoader())) {
            found.add(new MdcAccessor());
        }
        this.accessors = found.toArray(new ThreadLocalAccessor[0]);
        this.empty = new ThreadLocalSnapshot(accessors, null);
    }

    @Override
    public Runnable decorate(Runnable callback) {
        return capture().wrap(callback);
    }

    @Override
    public <T> Callable<T> decorate(Callable<T> callback) {
        return capture().wrap(callback);
    }

    /** This thread's values now; the shared empty snapshot when no accessor holds one. */
    private ThreadLocalSnapshot capture() {
        @Nullable Object @Nullable [] values = null;
        for (int i = 0; i < accessors.length; i++) {
            Object value = accessors[i].getValue();
            if (value != null) {
                if (values == null) {
                    values = new Object[accessors.length];
                }
                values[i] = value;
            }
        }
        return values == null ? empty : new ThreadLocalSnapshot(accessors, values);
    }
}
