package dev.synccontext.autoconfigure.webflux;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.CallbackDecorator;
import dev.synccontext.RendererSyncContext;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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

/** Conditions of the WebFlux part. */
class SyncContextWebFluxAutoConfigurationTest {

    private final ApplicationContextRunner plain = AllParts.plain();
    private final WebApplicationContextRunner servlet = AllParts.servlet();

    @Test
    void reactiveApplicationGetsTheArgumentResolverAndNoScopedBean() {
        AllParts.reactive().run(context -> {
            assertThat(context).hasSingleBean(WebSessionContexts.class);
            assertThat(context.containsBean("rendererSyncContext")).isFalse();
        });
    }
}
