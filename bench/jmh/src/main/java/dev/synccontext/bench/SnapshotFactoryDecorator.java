package dev.synccontext.bench;

import dev.synccontext.CallbackDecorator;
import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ContextSnapshotFactory;
import io.micrometer.context.ThreadLocalAccessor;
import io.micrometer.context.integration.Slf4jThreadLocalAccessor;
import java.util.concurrent.Callable;

/**
 * The starter's earlier context-propagation decorator, kept in the bench only so that
 * {@link StarterContextBenchmark} measures old and new in one run: Micrometer's
 * {@link ContextSnapshotFactory} with {@code clearMissing}, over the global registry's thread-local
 * accessors plus the SLF4J MDC, one {@code captureAll().wrap(...)} per queued callback.
 */
final class SnapshotFactoryDecorator implements CallbackDecorator {

    private final ContextSnapshotFactory snapshots;

    SnapshotFactoryDecorator() {
        ContextRegistry global = ContextRegistry.getInstance();
        ContextRegistry registry = new ContextRegistry();
        boolean mdc = false;
        for (ThreadLocalAccessor<?> accessor : global.getThreadLocalAccessors()) {
            registry.registerThreadLocalAccessor(accessor);
            mdc |= Slf4jThreadLocalAccessor.KEY.equals(accessor.key());
        }
        if (!mdc) {
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
