package dev.synccontext.sample;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Refuses (410 Gone) a call that names a session which no longer exists — it expired, was ended, or
 * the server restarted — instead of quietly starting a fresh, empty board behind the caller's back.
 * {@code GET /api/board} is the one way to start a new session; a call with no session cookie at all
 * starts one too.
 */
final class SessionGuard implements HandlerInterceptor {

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        // Only the request as it arrives: when an async result (a queued change, a closing event
        // stream) is dispatched back, the session may have ended meanwhile and the answer is still due.
        if (request.getDispatcherType() == DispatcherType.REQUEST
                && request.getRequestedSessionId() != null && !request.isRequestedSessionIdValid()) {
            throw BoardException.sessionEnded();
        }
        return true;
    }
}
