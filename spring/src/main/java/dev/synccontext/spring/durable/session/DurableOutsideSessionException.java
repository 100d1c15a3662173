package dev.synccontext.spring.durable.session;

/**
 * A {@link Durable} bean was called in a context that is not a session's (a STOMP or WebSocket session's, a
 * request's, a keyed one): there it would be node-local, so nothing of it would be stored, restored or written
 * through. Thrown at the call that would have created it; the instance is not kept. Not an
 * {@code IllegalStateException}, so that Spring does not rewrap it as a {@code ScopeNotActiveException} with advice
 * that does not apply.
 */
public class DurableOutsideSessionException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public DurableOutsideSessionException(String message) {
        super(message);
    }
}
