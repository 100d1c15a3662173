package dev.synccontext.spring;

import dev.synccontext.RendererSyncContext;

/**
 * Customizes the builder of every context the starter builds (session, request, WebSocket, keyed and
 * benchmark contexts alike), after the {@code synccontext.*} properties were applied to it: the Boot way to
 * set what the properties do not cover, such as an unhandled-exception handler. Declare beans of this
 * type; they are applied in {@link org.springframework.core.annotation.Order @Order} (a later one wins).
 * The observer is the starter's own (the metrics) and is set after the customizers.
 */
@FunctionalInterface
public interface SyncContextBuilderCustomizer {

    /** Customizes {@code builder}; called once per scope, for the builder its contexts are made with. */
    void customize(RendererSyncContext.Builder builder);
}
