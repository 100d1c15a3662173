package dev.synccontext.spring.handler;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;

/**
 * An {@link OnContext @OnContext} handler's body did not run because its context refused it: the context was
 * closed (the session ended, was evicted, or the application is shutting down) or its queue was full
 * ({@code synccontext.max-queue-depth}). Answered {@code 503 Service Unavailable}: the request did nothing,
 * and the condition is temporary (a retry gets the session's new context, or a shorter queue), which is what
 * 503 says; 409 would tell the client to change its request, which would not help.
 *
 * <p>A {@link ResponseStatusException}, so it reaches {@code @ExceptionHandler} methods and becomes a
 * {@code ProblemDetail} like any other error of the handler; the message names the context and the cause.
 */
public class ContextUnavailableException extends ResponseStatusException {

    private final String contextName;

    /**
     * @param contextName the context that refused the body
     * @param handler the handler method, for the message
     * @param cause why the context refused it ({@code RejectedExecutionException}, {@code CancellationException}):
     *     its message goes into this one's; it is not chained, so that an {@code @ExceptionHandler} for, say,
     *     {@code IllegalStateException} (a {@code CancellationException}'s supertype), which Spring also matches
     *     against causes, does not turn the 503 into its own answer
     */
    public ContextUnavailableException(String contextName, String handler, @Nullable Throwable cause) {
        this(contextName, handler, "did not run", cause);
    }

    /**
     * @param contextName the context that refused the body
     * @param handler the handler method, for the message
     * @param what what became of the body: "did not run", or, for a Kotlin {@code suspend} body whose later part
     *     may have been refused after a suspension, "did not run to its end"
     * @param cause why the context refused it (its message goes into this one's; not chained, as above)
     */
    public ContextUnavailableException(String contextName, String handler, String what, @Nullable Throwable cause) {
        super(HttpStatus.SERVICE_UNAVAILABLE, "@OnContext handler " + handler + " " + what + ": its context '"
                + contextName + "' refused it (" + (cause == null ? "closed" : cause.getMessage()) + "). The session's"
                + " context was closed (session ended or evicted, or shutdown) or its queue is full; a retry runs on"
                + " the session's current context.");
        this.contextName = contextName;
    }

    /** The name of the context that refused the body. */
    public String contextName() {
        return contextName;
    }
}
