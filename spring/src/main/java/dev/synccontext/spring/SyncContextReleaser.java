package dev.synccontext.spring;

import dev.synccontext.RendererSyncContext;
import org.springframework.aop.scope.ScopedObject;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.DestructionAwareBeanPostProcessor;
import dev.synccontext.registry.SyncContextRegistry;

/**
 * Hands a scoped {@link RendererSyncContext} back to its registry when its scope ends (end of the HTTP
 * session, request or WebSocket session), so it is closed gracefully rather than dropped: see
 * {@link SyncContextRegistry#release}. Contexts the registry does not track are left alone.
 */
public final class SyncContextReleaser implements DestructionAwareBeanPostProcessor {

    private final ObjectProvider<SyncContextRegistry> registry;

    public SyncContextReleaser(ObjectProvider<SyncContextRegistry> registry) {
        this.registry = registry;
    }

    /** A proxy is a RendererSyncContext too, but only the contexts behind it are released. */
    private static boolean isProxy(Object bean) {
        return bean instanceof ScopedSyncContext || bean instanceof ScopedObject;
    }

    @Override
    public boolean requiresDestruction(Object bean) {
        return bean instanceof RendererSyncContext && !isProxy(bean);
    }

    @Override
    public void postProcessBeforeDestruction(Object bean, String beanName) {
        if (bean instanceof RendererSyncContext context && !isProxy(bean)) {
            SyncContextRegistry r = registry.getIfAvailable();
            if (r != null) {
                r.release(context);
            }
        }
    }
}
