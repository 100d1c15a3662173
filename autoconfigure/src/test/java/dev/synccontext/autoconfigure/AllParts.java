package dev.synccontext.autoconfigure;

import dev.synccontext.autoconfigure.endpoint.SyncContextEndpointAutoConfiguration;
import dev.synccontext.autoconfigure.metrics.SyncContextMetricsAutoConfiguration;
import dev.synccontext.autoconfigure.mvc.SyncContextMvcAutoConfiguration;
import dev.synccontext.autoconfigure.propagation.SyncContextPropagationAutoConfiguration;
import dev.synccontext.autoconfigure.session.SyncContextSessionAutoConfiguration;
import dev.synccontext.autoconfigure.webflux.SyncContextWebFluxAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.ApplicationContext;

/** The root auto-configuration with the parts every web application gets, for the parts' condition tests. */
public final class AllParts {

    /** Root, session, WebFlux, MVC, propagation, metrics and endpoint (not WebSocket or TaskDecorator). */
    public static final AutoConfigurations ALL = AutoConfigurations.of(SyncContextAutoConfiguration.class,
            SyncContextSessionAutoConfiguration.class, SyncContextWebFluxAutoConfiguration.class,
            SyncContextMvcAutoConfiguration.class, SyncContextPropagationAutoConfiguration.class,
            SyncContextMetricsAutoConfiguration.class, SyncContextEndpointAutoConfiguration.class);

    private AllParts() {
    }

    /** A non-web application with {@link #ALL}. */
    public static ApplicationContextRunner plain() {
        return new ApplicationContextRunner().withConfiguration(ALL);
    }

    /** A servlet web application with {@link #ALL}. */
    public static WebApplicationContextRunner servlet() {
        return new WebApplicationContextRunner().withConfiguration(ALL);
    }

    /** A reactive web application with {@link #ALL}. */
    public static ReactiveWebApplicationContextRunner reactive() {
        return new ReactiveWebApplicationContextRunner().withConfiguration(ALL);
    }

    /** A new registry holding the meters of {@code context}'s one {@link MeterBinder}, bound to it just now. */
    public static MeterRegistry boundMeters(ApplicationContext context) {
        MeterRegistry meters = new SimpleMeterRegistry();
        context.getBean(MeterBinder.class).bindTo(meters);
        return meters;
    }
}
