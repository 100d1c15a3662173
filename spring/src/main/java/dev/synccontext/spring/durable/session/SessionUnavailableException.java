package dev.synccontext.spring.durable.session;

import java.time.Duration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;

/**
 * A session's durable state is not available on this node now: another node owns the session and did not hand it
 * over within {@code synccontext.durable.hand-off-timeout}, or this node's lease in the store is not live.
 * Answered {@code 503 Service Unavailable} with {@code Retry-After}: nothing ran, and a retry soon is likely to
 * succeed (the owner finishes its hand-off, or its lease expires).
 */
public class SessionUnavailableException extends ResponseStatusException {

    private final Duration retryAfter;

    public SessionUnavailableException(String message, Duration retryAfter) {
        super(HttpStatus.SERVICE_UNAVAILABLE, message);
        this.retryAfter = retryAfter;
    }

    /** When the client should try again. */
    public Duration retryAfter() {
        return retryAfter;
    }

    @Override
    public HttpHeaders getHeaders() {
        HttpHeaders headers = new HttpHeaders();
        headers.set(HttpHeaders.RETRY_AFTER, Long.toString(Math.max(1, (retryAfter.toMillis() + 999) / 1000)));
        return headers;
    }
}
