package dev.synccontext.spring.mvc;

import dev.synccontext.spring.shutdown.ShuttingDownRefusals;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.jspecify.annotations.Nullable;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.servlet.HandlerExceptionResolver;
import org.springframework.web.servlet.ModelAndView;

/**
 * Answers a request refused because the application is shutting down ({@link ShuttingDownRefusals}: no new
 * context during the drain, or a callback on a context the drain closed) with {@code 503 Service
 * Unavailable} and {@code Connection: close}, through the container's error page, instead of the
 * {@code 500} an unhandled exception gets. Last among the resolvers, so an application's own
 * {@code @ExceptionHandler} for these exceptions (or for {@code Exception}) still wins; any other failure,
 * and a response already committed, are left to the resolvers after it (none: the container's 500).
 */
public final class ShuttingDownExceptionResolver implements HandlerExceptionResolver, Ordered {

    @Override
    public @Nullable ModelAndView resolveException(HttpServletRequest request, HttpServletResponse response,
            @Nullable Object handler, Exception failure) {
        RuntimeException refusal = ShuttingDownRefusals.find(failure);
        if (refusal == null || response.isCommitted()) {
            return null;
        }
        try {
            response.setHeader(HttpHeaders.CONNECTION, "close");
            response.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE, refusal.getMessage());
        } catch (IOException clientGone) {
            // The client went away meanwhile: nothing left to answer.
        }
        return new ModelAndView();
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
