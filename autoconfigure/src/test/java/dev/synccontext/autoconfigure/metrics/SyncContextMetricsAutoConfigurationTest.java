package dev.synccontext.autoconfigure.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.CallbackDecorator;
import dev.synccontext.RendererSyncContext;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.messaging.simp.config.MessageBrokerRegistry;
import org.springframework.web.socket.config.annotation.EnableWebSocketMessageBroker;
import org.springframework.web.socket.config.annotation.StompEndpointRegistry;
import org.springframework.web.socket.config.annotation.WebSocketMessageBrokerConfigurer;
import dev.synccontext.autoconfigure.endpoint.SyncContextEndpoint;
import dev.synccontext.autoconfigure.endpoint.SyncContextEndpointAutoConfiguration;
import dev.synccontext.autoconfigure.metrics.SyncContextMetricsAutoConfiguration;
import dev.synccontext.spring.session.SessionContexts;
import dev.synccontext.spring.session.WebSessionContexts;
import dev.synccontext.registry.ContextTemplate;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.autoconfigure.mvc.SyncContextMvcAutoConfiguration;
import dev.synccontext.autoconfigure.propagation.SyncContextPropagationAutoConfiguration;
import dev.synccontext.autoconfigure.session.SyncContextSessionAutoConfiguration;
import dev.synccontext.autoconfigure.webflux.SyncContextWebFluxAutoConfiguration;
import dev.synccontext.autoconfigure.AllParts;
import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;

/** Conditions of the metrics part. */
class SyncContextMetricsAutoConfigurationTest {

    private final ApplicationContextRunner plain = AllParts.plain();
    private final WebApplicationContextRunner servlet = AllParts.servlet();

    @Test
    void metricsBinderExportsTheConfiguredScopeFromStartup() {
        servlet.run(context -> {
            MeterRegistry meters = AllParts.boundMeters(context);
            assertThat(meters.get("synccontext.contexts").tag("scope", "session").gauge().value()).isZero();
            context.getBean(SyncContextRegistry.class).forKey("later");
            assertThat(meters.get("synccontext.contexts").tag("scope", "keyed").gauge().value())
                    .as("a scope first used after binding gets its meters too").isEqualTo(1);
        });
    }

    @Test
    void metricsBinderExportsTheDefaultExecutorsThreadsByState() {
        plain.run(context -> {
            MeterRegistry meters = AllParts.boundMeters(context);
            for (String state : new String[] { "running", "blocked", "idle" }) {
                assertThat(meters.find("synccontext.executor.threads").tag("state", state).gauge())
                        .as("synccontext.executor.threads{state=%s}", state).isNotNull();
            }
            assertThat(meters.get("synccontext.executor.threads.max").gauge().value())
                    .isEqualTo(Math.max(256, 16 * Runtime.getRuntime().availableProcessors()));
            assertThat(meters.get("synccontext.executor.cap.reached").functionCounter().count()).isZero();
            assertThat(meters.find("synccontext.executor.compensations").functionCounter()).isNotNull();
            assertThat(meters.find("synccontext.executor.queued").gauge()).isNotNull();
        });
    }

    @Test
    void metricsEnabledFalseRemovesTheBinderButKeepsTheRegistry() {
        plain.withPropertyValues("synccontext.metrics.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(MeterBinder.class);
            assertThat(context).hasSingleBean(SyncContextRegistry.class);
        });
    }

    @Test
    void noMetricsWithoutMicrometer() {
        plain.withClassLoader(new FilteredClassLoader(MeterRegistry.class)).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).hasSingleBean(SyncContextRegistry.class);
            assertThat(context.containsBean("syncContextMeterBinder")).isFalse();
        });
    }
}
