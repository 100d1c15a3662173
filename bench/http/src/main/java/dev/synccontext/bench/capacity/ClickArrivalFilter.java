package dev.synccontext.bench.capacity;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/** Stamps when a click request reaches the application, for {@link ServerClickTimes}. */
@Component
final class ClickArrivalFilter extends OncePerRequestFilter {

    private final ServerClickTimes times;

    ClickArrivalFilter(ServerClickTimes times) {
        this.times = times;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !"/pad/click".equals(request.getRequestURI());
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String nonce = request.getParameter("nonce");
        if (nonce != null && !nonce.isEmpty() && nonce.chars().allMatch(Character::isDigit) && nonce.length() < 19) {
            times.arrived(Long.parseLong(nonce));
        }
        chain.doFilter(request, response);
    }
}
