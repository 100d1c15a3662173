package dev.synccontext.autoconfigure.observation;

import dev.synccontext.CallbackDecorator;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;
import dev.synccontext.autoconfigure.propagation.SyncContextPropagationAutoConfiguration;
import dev.synccontext.autoconfigure.propagation.SyncContextTaskDecoratorAutoConfiguration;
import dev.synccontext.spring.SyncContextConfigurationException;
import dev.synccontext.spring.observation.QueuedCallbackObservationConvention;
import dev.synccontext.spring.observation.QueuedCallbackObservations;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * With {@code synccontext.observations.enabled=true}, every queued callback records an observation
 * ({@link QueuedCallbackObservations}) on the application's {@link ObservationRegistry}, named and tagged by
 * the application's {@link QueuedCallbackObservationConvention} bean if it has one.
 *
 * <p>The decorator is one more {@code CallbackDecorator} bean, composed with the others; it is ordered first
 * (innermost), inside context propagation, and registered after the propagation auto-configurations so that
 * they, which back off when the application has a decorator of its own, still apply.
 */
@AutoConfiguration(before = SyncContextAutoConfiguration.class,
        after = { SyncContextTaskDecoratorAutoConfiguration.class, SyncContextPropagationAutoConfiguration.class },
        afterName = "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration")
@ConditionalOnClass({ RendererSyncContext.class, ObservationRegistry.class })
@ConditionalOnBooleanProperty(name = "synccontext.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "synccontext.observations.enabled")
@EnableConfigurationProperties(ObservationsProperties.class)
public final class SyncContextObservationAutoConfiguration {

    @Bean
    @Order(Ordered.HIGHEST_PRECEDENCE)
    CallbackDecorator syncContextObservationDecorator(ObjectProvider<ObservationRegistry> registry,
            ObjectProvider<QueuedCallbackObservationConvention> convention) {
        ObservationRegistry observations = registry.getIfUnique();
        if (observations == null) {
            throw new SyncContextConfigurationException(
                    "synccontext.observations.enabled is true, but the application has no single ObservationRegistry"
                            + " bean to record the observations of queued callbacks on.",
                    "Add spring-boot-starter-actuator (Boot's observation auto-configuration declares the registry),"
                            + " declare one ObservationRegistry bean (or mark one @Primary), or remove the property.");
        }
        return new QueuedCallbackObservations(observations, convention.getIfUnique());
    }
}
