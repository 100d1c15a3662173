package dev.synccontext.spring.propagation;

import brave.Tracing;
import brave.context.slf4j.MDCScopeDecorator;
import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.ThreadLocalCurrentTraceContext;
import brave.propagation.TraceContext;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.mvc.ContextHold;
import dev.synccontext.spring.handler.OnContext;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.brave.bridge.BraveBaggageManager;
import io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.MDC;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * An application with a real tracer as an application has one: Brave, whose scopes write {@code traceId} and
 * {@code spanId} into the MDC, bridged to Micrometer Tracing and fed by Boot's observation registry (so Spring
 * MVC's server observation makes the request's span), and a filter that puts the caller's Spring Security
 * {@link Authentication} on the request thread, as Spring Security's filter chain does. Queued callbacks run
 * on one drain thread ({@code applicationTaskExecutor}), so what one leaves behind the next one sees.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({ TracedApp.Probes.class, ContextHold.class })
class TracedApp {

    /** Spans Brave finished, newest last. */
    @Bean
    List<MutableSpan> finishedSpans() {
        return new CopyOnWriteArrayList<>();
    }

    @Bean(destroyMethod = "close")
    Tracing braveTracing(List<MutableSpan> finishedSpans) {
        return Tracing.newBuilder().localServiceName("traced")
                .currentTraceContext(ThreadLocalCurrentTraceContext.newBuilder()
                        .addScopeDecorator(MDCScopeDecorator.get()).build())
                .addSpanHandler(new SpanHandler() {
                    @Override
                    public boolean end(TraceContext context, MutableSpan span, Cause cause) {
                        finishedSpans.add(span);
                        return true;
                    }
                })
                .build();
    }

    @Bean
    Tracer tracer(Tracing tracing) {
        return new BraveTracer(tracing.tracer(), new BraveCurrentTraceContext(tracing.currentTraceContext()),
                new BraveBaggageManager());
    }

    @Bean
    DefaultTracingObservationHandler tracingObservationHandler(Tracer tracer) {
        return new DefaultTracingObservationHandler(tracer);
    }

    @Bean(name = "applicationTaskExecutor", destroyMethod = "shutdown")
    ThreadPoolTaskExecutor applicationTaskExecutor() {
        ThreadPoolTaskExecutor executor = new ThreadPoolTaskExecutor();
        executor.setCorePoolSize(1);
        executor.setMaxPoolSize(1);
        executor.setThreadNamePrefix("drain-");
        executor.initialize();
        return executor;
    }

    /**
     * On the request thread, inside the server observation: the caller named by {@code X-User} becomes the
     * authenticated user (cleared afterwards), and the request's span goes back in {@code X-Trace}.
     */
    @Bean
    FilterRegistrationBean<Filter> userAndTraceFilter(Tracer tracer) {
        FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>((request, response, chain) -> {
            String user = ((HttpServletRequest) request).getHeader("X-User");
            Span span = tracer.currentSpan();
            ((HttpServletResponse) response).setHeader("X-Trace",
                    span == null ? "none" : span.context().traceId() + "/" + span.context().spanId());
            if (user != null) {
                SecurityContextHolder.getContext().setAuthentication(
                        UsernamePasswordAuthenticationToken.authenticated(user, "n/a", List.of()));
            }
            try {
                chain.doFilter(request, response);
            } finally {
                SecurityContextHolder.clearContext();
            }
        });
        registration.setDispatcherTypes(DispatcherType.REQUEST);
        return registration;
    }

    /** What a callback sees of the thread-locals that travel: the thread, MDC, tracer, observation, user. */
    static String seen(Tracer tracer, ObservationRegistry observations) {
        Span span = tracer.currentSpan();
        Authentication user = SecurityContextHolder.getContext().getAuthentication();
        Map<String, String> mdc = MDC.getCopyOfContextMap();
        return String.join("|", Thread.currentThread().getName(),
                String.valueOf(mdc == null ? null : mdc.get("traceId")), String.valueOf(mdc == null ? null : mdc.get("spanId")),
                span == null ? "null" : span.context().traceId(), span == null ? "null" : span.context().spanId(),
                String.valueOf(observations.getCurrentObservation()), user == null ? "null" : user.getName());
    }

    @RestController
    record Probes(RendererSyncContext context, Tracer tracer, ObservationRegistry observations,
            ContextHold contextHold) {

        /** Holds the session's context busy on the drain thread until released. */
        @PostMapping("/traced/hold")
        void hold() {
            contextHold.hold(context);
        }

        @OnContext
        @GetMapping("/traced/seen")
        String seenOnContext() {
            return seen(tracer, observations);
        }
    }
}
