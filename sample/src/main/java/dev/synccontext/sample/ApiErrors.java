package dev.synccontext.sample;

import java.util.concurrent.RejectedExecutionException;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/**
 * Turns the board's refusals into RFC 9457 problem details with a message for people. Spring MVC's
 * own errors (a missing parameter, a wrong type, an unknown path) are problem details too, through
 * {@code spring.mvc.problemdetails.enabled}. Stack traces never reach a response.
 */
@RestControllerAdvice
final class ApiErrors {

    @ExceptionHandler(BoardException.class)
    ProblemDetail refused(BoardException refusal) {
        return ProblemDetail.forStatusAndDetail(refusal.status(), refusal.getMessage());
    }

    /**
     * The session's context refused the work: it was closed because the session ended while this
     * request was on its way (410), or its queue is full (503, when {@code synccontext.max-queue-depth}
     * is set).
     */
    @ExceptionHandler(RejectedExecutionException.class)
    ProblemDetail rejected(RejectedExecutionException rejection, HttpServletRequest request) {
        if (request.getSession(false) == null) {
            BoardException ended = BoardException.sessionEnded();
            return ProblemDetail.forStatusAndDetail(ended.status(), ended.getMessage());
        }
        return ProblemDetail.forStatusAndDetail(HttpStatus.SERVICE_UNAVAILABLE,
                "This session is too busy right now; try again. (" + rejection.getMessage() + ")");
    }
}
