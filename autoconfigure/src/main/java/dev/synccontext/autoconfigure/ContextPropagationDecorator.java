package dev.synccontext.autoconfigure;

import dev.synccontext.CallbackDecorator;
import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ContextSnapshotFactory;
import io.micrometer.context.ThreadLocalAccessor;
import io.micrometer.context.integration.Slf4jThreadLocalAccessor;
import java.util.concurrent.Callable;
import org.springframework.util.ClassUtils;

/**
 * Carries the submitter's thread-locals over to the thread that runs a queued callback, with Micrometer
 * context propagation: captured when the callback is queued, set around it when it runs, and restored
 * (so cleared, on a pool thread) afterwards. Thread-locals that were not captured are cleared while the
 * callback runs, so nothing leaks in from the previous task of a pool thread.
 *
 * <p>What travels: every {@link ThreadLocalAccessor} registered on {@link ContextRegistry#getInstance()}
 * when this decorator is created (Micrometer's observation, Spring Security's context when present,
 * anything the application registered) plus the SLF4J MDC. Callbacks that run on the submitter's own
 * thread are never wrapped: they already see its thread-locals.
 */
final class ContextPropagationDecorator implements CallbackDecorator {

    private final ContextSnapshotFactory snapshots;

    ContextPropagationDecorator() {
        this(ContextRegistry.getInstance());
    }

    ContextPropagationDecorator(ContextRegistry global) {
        ContextRegistry registry = new ContextRegistry();
        global.getContextAccessors().forEach(registry::registerContextAccessor);
        boolean mdc = false;
        for (ThreadLocalAccessor<?> accessor : global.getThreadLocalAccessors()) {
            registry.registerThreadLocalAccessor(accessor);
            mdc |= Slf4jThreadLocalAccessor.KEY.equals(accessor.key());
        }
        if (!mdc && ClassUtils.isPresent("org.slf4j.MDC", getClass().getClassLoader())) {
            registry.registerThreadLocalAccessor(new Slf4jThreadLocalAccessor());
        }
        this.snapshots = ContextSnapshotFactory.builder().contextRegistry(registry).clearMissing(true).build();
    }

    @Override
    public Runnable decorate(Runnable callback) {
        return snapshots.captureAll().wrap(callback);
    }

    @Override
    public <T> Callable<T> decorate(Callable<T> callback) {
        return snapshots.captureAll().wrap(callback);
    }
}
