package dev.synccontext.sample;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configurers.RequestCacheConfigurer;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.csrf.CsrfException;

/**
 * What a real deployment would copy: the management endpoints (metrics, the benchmark runner) need
 * HTTP basic credentials with role {@code ACTUATOR}, except {@code health}, which load balancers
 * call anonymously. The board pages and API stay open to everyone (each visitor is just a session).
 *
 * <p>The user comes from Boot's {@code spring.security.user.*} properties; {@code application.properties}
 * sets a development default that a deployment overrides (see the README).
 *
 * <p>The board API keeps CSRF protection, as any cookie-session API must: the page reads the
 * {@code XSRF-TOKEN} cookie and echoes it in an {@code X-XSRF-TOKEN} header. The management
 * endpoints are exempt, since they authenticate each request with credentials a browser would not
 * send on its own.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

    @Bean
    SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
        http.authorizeHttpRequests(requests -> requests
                        .requestMatchers(EndpointRequest.to("health")).permitAll()
                        .requestMatchers(EndpointRequest.toAnyEndpoint()).hasRole("ACTUATOR")
                        .anyRequest().permitAll())
                .httpBasic(Customizer.withDefaults())
                .csrf(csrf -> csrf.spa().ignoringRequestMatchers(EndpointRequest.toAnyEndpoint()))
                .exceptionHandling(errors -> errors.accessDeniedHandler(SecurityConfiguration::denied))
                // An anonymous scrape must not create an HTTP session just to remember where it was going.
                .requestCache(RequestCacheConfigurer::disable);
        return http.build();
    }

    /** A refusal as problem-detail JSON that says what to send, like every other error of the API. */
    private static void denied(HttpServletRequest request, HttpServletResponse response, AccessDeniedException denied)
            throws IOException {
        String detail = denied instanceof CsrfException
                ? "Missing or wrong CSRF token: send the value of the XSRF-TOKEN cookie (set by GET /api/board)"
                        + " in an X-XSRF-TOKEN header."
                : "Access denied.";
        response.setStatus(HttpStatus.FORBIDDEN.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setCharacterEncoding("UTF-8");
        response.getWriter().write("{\"title\":\"Forbidden\",\"status\":403,\"detail\":\"" + detail + "\"}");
    }
}
