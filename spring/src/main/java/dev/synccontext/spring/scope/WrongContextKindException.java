package dev.synccontext.spring.scope;

/**
 * A {@link ContextScoped} bean that declares the kind of context it belongs to ({@link ContextScoped#kind()},
 * {@link ContextScoped#key()}) was called in a context of another kind: a session's bean inside a room's
 * callback, a room's bean in a session's handler. Nothing is created; the message names the bean, the
 * running context and the fix. Not an {@code IllegalStateException}, so that Spring does not rewrap it as a
 * {@code ScopeNotActiveException} with advice that does not apply.
 */
public final class WrongContextKindException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    WrongContextKindException(String message) {
        super(message);
    }
}
