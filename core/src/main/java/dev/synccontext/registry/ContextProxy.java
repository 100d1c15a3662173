package dev.synccontext.registry;

import dev.synccontext.ContextClock;
import dev.synccontext.RendererSyncContext;

/**
 * A {@link RendererSyncContext} that stands in for another one, resolved on every call (the starter's
 * injected {@code rendererSyncContext} resolves to the current session's, request's or running
 * callback's context). {@link SyncContextRegistry#resolve} asks it for the context behind it.
 */
public interface ContextProxy extends RendererSyncContext {

    /**
     * The context this proxy stands for on the current thread, resolved now.
     *
     * @throws RuntimeException of the proxy's own kind if nothing can be resolved on this thread (the
     *     starter's proxy throws Spring's {@code ScopeNotActiveException})
     */
    RendererSyncContext target();

    /** The clock of the context this proxy resolves to now. */
    @Override
    default ContextClock clock() {
        return target().clock();
    }
}
