package dev.synccontext.sample;

import org.springframework.http.HttpStatus;

/**
 * A request the board refuses, with the HTTP status it maps to and a message meant for the person
 * who sent it. Thrown inside a context callback, it travels to the controller through the callback's
 * future; {@link ApiErrors} turns it into a problem-detail response.
 */
final class BoardException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final HttpStatus status;

    private BoardException(HttpStatus status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    static BoardException badInput(String message) {
        return new BoardException(HttpStatus.BAD_REQUEST, message);
    }

    static BoardException notFound(String message) {
        return new BoardException(HttpStatus.NOT_FOUND, message);
    }

    static BoardException conflict(String message) {
        return new BoardException(HttpStatus.CONFLICT, message);
    }

    static BoardException sessionEnded() {
        return new BoardException(HttpStatus.GONE,
                "Your session has ended (it expired, was closed, or the server restarted). "
                        + "GET /api/board or reload the page to start a new one.");
    }

    HttpStatus status() {
        return status;
    }
}
