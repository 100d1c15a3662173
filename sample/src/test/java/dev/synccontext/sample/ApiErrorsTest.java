package dev.synccontext.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.RejectedExecutionException;

import org.junit.jupiter.api.Test;
import org.springframework.http.ProblemDetail;
import org.springframework.mock.web.MockHttpServletRequest;

/**
 * A context refusal that races with the end of its session (the request arrived while the session
 * was being invalidated) is a clean 410; a full queue on a live session is a 503. Both are too racy to
 * provoke reliably over HTTP, so the mapping is checked directly.
 */
class ApiErrorsTest {

    final ApiErrors errors = new ApiErrors();

    @Test
    void refusalAfterTheSessionEndedIsGone() {
        MockHttpServletRequest request = new MockHttpServletRequest();
        request.getSession().invalidate();
        ProblemDetail problem = errors.rejected(new RejectedExecutionException("session-7 is closed"), request);
        assertThat(problem.getStatus()).isEqualTo(410);
        assertThat(problem.getDetail()).startsWith("Your session has ended");
    }

    @Test
    void refusalOfALiveSessionIsServiceUnavailableAndSaysWhy() {
        MockHttpServletRequest request = new MockHttpServletRequest();
        request.getSession();
        ProblemDetail problem = errors.rejected(new RejectedExecutionException("session-7 is full (100 queued)"), request);
        assertThat(problem.getStatus()).isEqualTo(503);
        assertThat(problem.getDetail()).contains("too busy", "session-7 is full (100 queued)");
    }
}
