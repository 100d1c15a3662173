package dev.synccontext.autoconfigure.session;

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

/** Conditions of the session part: the node's session contexts, the listener, the injected proxy and its scopes. */
class SyncContextSessionAutoConfigurationTest {

    private final ApplicationContextRunner plain = AllParts.plain();
    private final WebApplicationContextRunner servlet = AllParts.servlet();

    @Test
    void servletApplicationGetsASessionProxyBackedByHandlesNotBySessionScopedBeans() {
        servlet.withUserConfiguration(NeedsContext.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.containsBean("scopedTarget.rendererSyncContext"))
                    .as("no session-scoped context bean: the session holds a handle, the node holds the context")
                    .isFalse();
            assertThat(context).hasSingleBean(SessionContexts.class);
            assertThat(context).hasSingleBean(jakarta.servlet.http.HttpSessionListener.class);
            assertThat(context.getBean(NeedsContext.class).context).isInstanceOf(RendererSyncContext.class);
            assertThat(context.getBean(SyncContextRegistry.class).statistics())
                    .extracting(s -> s.scope()).containsExactly("session");
        });
    }

    @Test
    void scopeRequestMakesTheBeanRequestScoped() {
        servlet.withPropertyValues("synccontext.scope=request").run(context -> assertThat(
                context.getBeanFactory().getBeanDefinition("scopedTarget.rendererSyncContext").getScope())
                .isEqualTo("request"));
    }

    @Test
    void backsOffForAUserRendererSyncContextBean() {
        servlet.withUserConfiguration(UserContext.class).run(context -> {
            assertThat(context.containsBean("scopedTarget.rendererSyncContext")).isFalse();
            assertThat(context).hasSingleBean(RendererSyncContext.class);
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class UserContext {
        @Bean
        RendererSyncContext myContext() {
            return RendererSyncContext.create();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class NeedsContext {
        final RendererSyncContext context;

        NeedsContext(RendererSyncContext context) {
            this.context = context;
        }
    }
}
