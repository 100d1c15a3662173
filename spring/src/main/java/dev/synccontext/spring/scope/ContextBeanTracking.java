package dev.synccontext.spring.scope;

import dev.synccontext.RendererSyncContext;

/**
 * What the {@value ContextScoped#SCOPE_NAME} scope tells a layer that keeps some context-scoped beans beyond
 * their context (the durable state): which beans it tracks, when one is created, and when a call reaches one
 * through its proxy. Installed with {@link ContextBeanScope#track}; a scope without it pays one null check per call.
 *
 * <p>Called on the thread that resolves the bean: inside a callback of {@code context}, or on a request thread
 * whose current-context proxy names it. Implementations must be fast (every proxied call of a tracked bean) and
 * thread-safe.
 */
public interface ContextBeanTracking {

    /** Whether bean {@code beanName} is tracked; asked once per bean name and remembered by the scope. */
    boolean tracks(String beanName);

    /**
     * A tracked bean was just created for {@code context} (constructed and injected, not yet used).
     *
     * @return the instance the context keeps: {@code bean}, perhaps with restored state
     */
    Object created(RendererSyncContext context, String beanName, Object bean);

    /** A call reached tracked bean {@code beanName} of {@code context} through its proxy (or a look-up). */
    void touched(RendererSyncContext context, String beanName);
}
