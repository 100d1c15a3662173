package dev.synccontext.autoconfigure.observation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.CallbackDecorator;
import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;
import dev.synccontext.autoconfigure.propagation.SyncContextPropagationAutoConfiguration;
import dev.synccontext.autoconfigure.propagation.SyncContextTaskDecoratorAutoConfiguration;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.spring.CompositeCallbackDecorator;
import dev.synccontext.spring.SyncContextConfigurationException;
import dev.synccontext.spring.observation.DefaultQueuedCallbackObservationConvention;
import dev.synccontext.spring.observation.QueuedCallbackObservationConvention;
import dev.synccontext.spring.observation.QueuedCallbackObservations;
import dev.synccontext.spring.propagation.ContextPropagationDecorator;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** When the observations of queued work are wired, and how they compose with context propagation. */
class SyncContextObservationAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(SyncContextAutoConfiguration.class, SyncContextTaskDecoratorAutoConfiguration.class,
                    SyncContextPropagationAutoConfiguration.class, SyncContextObservationAutoConfiguration.class));

    @Test
    void offByDefaultContextsKeepContextPropagationAlone() {
        runner.withUserConfiguration(Registry.class).run(context -> {
            assertThat(context).doesNotHaveBean(QueuedCallbackObservations.class);
            assertThat(context.getBean(SyncContextRegistry.class).template().decorator())
                    .isInstanceOf(ContextPropagationDecorator.class);
        });
    }

    @Test
    void onTheObservationsDecorateInsideContextPropagation() {
        runner.withUserConfiguration(Registry.class).withPropertyValues("synccontext.observations.enabled=true")
                .run(context -> {
                    assertThat(context).hasSingleBean(QueuedCallbackObservations.class);
                    CallbackDecorator decorator = context.getBean(SyncContextRegistry.class).template().decorator();
                    assertThat(decorator).isInstanceOf(CompositeCallbackDecorator.class);
                    assertThat(decorator.toString()).as("composed in order: the first one decorates innermost")
                            .matches("CompositeCallbackDecorator\\[QueuedCallbackObservations.*, .*ContextPropagationDecorator.*\\]");
                    decorator.decorate(() -> { }).run();
                    TestObservationRegistryAssert.assertThat(context.getBean(TestObservationRegistry.class))
                            .hasObservationWithNameEqualTo(DefaultQueuedCallbackObservationConvention.NAME);
                });
    }

    @Test
    void theApplicationsConventionNamesTheObservation() {
        runner.withUserConfiguration(Registry.class, OwnConvention.class)
                .withPropertyValues("synccontext.observations.enabled=true").run(context -> {
                    context.getBean(QueuedCallbackObservations.class).decorate(() -> { }).run();
                    TestObservationRegistryAssert.assertThat(context.getBean(TestObservationRegistry.class))
                            .hasObservationWithNameEqualTo("app.queued");
                });
    }

    @Test
    void onWithoutAnObservationRegistryFailsStartupNamingTheFix() {
        runner.withPropertyValues("synccontext.observations.enabled=true").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isInstanceOf(SyncContextConfigurationException.class)
                    .hasMessageContaining("synccontext.observations.enabled").hasMessageContaining("ObservationRegistry");
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class Registry {
        @Bean
        TestObservationRegistry observationRegistry() {
            return TestObservationRegistry.create();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnConvention {
        @Bean
        QueuedCallbackObservationConvention ownConvention() {
            return new DefaultQueuedCallbackObservationConvention() {
                @Override
                public String getName() {
                    return "app.queued";
                }
            };
        }
    }
}
