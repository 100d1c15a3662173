package dev.synccontext.spring.scope;

/**
 * A {@link ContextScoped} bean was called where no context is current: off any callback, with no HTTP
 * request or STOMP message on the thread (or off a callback at all, with
 * {@code synccontext.context-scope.strict=true}), or inside a context the registry did not create. The
 * message names the thread, the bean and the fix. Not an {@code IllegalStateException}, so that Spring
 * does not rewrap it as a {@code ScopeNotActiveException} whose advice (define a scoped proxy) would be wrong
 * here: the proxy exists, the thread has no context.
 */
public final class NoCurrentContextException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    NoCurrentContextException(String message) {
        super(message);
    }
}
