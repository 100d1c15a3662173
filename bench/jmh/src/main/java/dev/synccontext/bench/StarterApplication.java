package dev.synccontext.bench;

import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;
import dev.synccontext.autoconfigure.metrics.SyncContextMetricsAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import dev.synccontext.autoconfigure.propagation.SyncContextPropagationAutoConfiguration;
import dev.synccontext.autoconfigure.propagation.SyncContextTaskDecoratorAutoConfiguration;

/**
 * The starter's auto-configuration with its defaults, in a plain application context: the registry (and
 * its context template), the context-propagation decorator (context-propagation, Micrometer Observation
 * and Logback are on this module's class path, as in an application with actuator) and the metrics
 * bound to a meter registry. Also an {@link ObservationRegistry} that records into that meter registry,
 * as Spring Boot's observation auto-configuration sets it up, for the benchmark's observation in scope.
 *
 * <p>A plain {@link AnnotationConfigApplicationContext} instead of {@code SpringApplication}: the
 * benchmarks jar is shaded, which merges {@code META-INF/services} but not Spring's factories files.
 */
final class StarterApplication implements AutoCloseable {

    private final AnnotationConfigApplicationContext spring;

    StarterApplication() {
        spring = new AnnotationConfigApplicationContext(Beans.class);
        MeterRegistry meters = spring.getBean(MeterRegistry.class);
        spring.getBeansOfType(MeterBinder.class).values().forEach(binder -> binder.bindTo(meters));
    }

    SyncContextRegistry registry() {
        return spring.getBean(SyncContextRegistry.class);
    }

    ObservationRegistry observations() {
        return spring.getBean(ObservationRegistry.class);
    }

    @Override
    public void close() {
        spring.close();
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({SyncContextAutoConfiguration.class, SyncContextTaskDecoratorAutoConfiguration.class,
            SyncContextPropagationAutoConfiguration.class, SyncContextMetricsAutoConfiguration.class})
    static class Beans {

        @Bean
        MeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        @Bean
        ObservationRegistry observationRegistry(MeterRegistry meters) {
            ObservationRegistry registry = ObservationRegistry.create();
            registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
            return registry;
        }
    }
}
