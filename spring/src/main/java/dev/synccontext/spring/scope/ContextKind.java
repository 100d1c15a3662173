package dev.synccontext.spring.scope;

import org.jspecify.annotations.Nullable;

/**
 * The kind of context a {@link ContextScoped} bean belongs to, by the registry scope of the context. A bean
 * that declares one is created only in a context of that kind; asked for in another kind, the call fails
 * with a {@link WrongContextKindException} naming the bean, the running context and the fix, instead of
 * handing out a fresh, empty instance made for the wrong context (a user's profile created for a room, a
 * room created per session).
 */
public enum ContextKind {

    /** Whichever context the call belongs to (the default, as before kinds were declared). */
    CURRENT(null),
    /** An HTTP session's or a WebFlux {@code WebSession}'s context (registry scope {@code session}). */
    SESSION("session"),
    /** A request's context ({@code synccontext.scope=request}; registry scope {@code request}). */
    REQUEST("request"),
    /** A WebSocket or STOMP session's context (registry scope {@code websocket}). */
    WEBSOCKET("websocket"),
    /**
     * A keyed context of the registry ({@code registry.forKey(key)}; registry scope {@code keyed}); narrowed
     * to some keys by {@link ContextScoped#key()}.
     */
    KEYED("keyed");

    private final @Nullable String registryScope;

    ContextKind(@Nullable String registryScope) {
        this.registryScope = registryScope;
    }

    /** The registry scope of this kind's contexts, or {@code null} for {@link #CURRENT}. */
    @Nullable String registryScope() {
        return registryScope;
    }
}
