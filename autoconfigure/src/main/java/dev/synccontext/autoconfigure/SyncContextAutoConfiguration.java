package dev.synccontext.autoconfigure;

import dev.synccontext.CallbackDecorator;
import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Scope;
import org.springframework.context.annotation.ScopedProxyMode;
import org.springframework.web.context.annotation.RequestScope;
import org.springframework.web.context.annotation.SessionScope;
import org.springframework.web.reactive.result.method.annotation.ArgumentResolverConfigurer;
import org.springframework.web.reactive.config.WebFluxConfigurer;

/**
 * Auto-configuration for {@link RendererSyncContext}: the {@link RendererSyncContextRegistry}, a
 * scoped {@code rendererSyncContext} bean (servlet web applications), a WebFlux argument resolver, and
 * context propagation for queued callbacks.
 *
 * <p>Ordered after {@link TaskExecutionAutoConfiguration}: a {@code RendererSyncContext} is an
 * {@code Executor}, and Boot's {@code applicationTaskExecutor} backs off when it sees one.
 */
@AutoConfiguration(after = TaskExecutionAutoConfiguration.class)
@ConditionalOnClass(RendererSyncContext.class)
@ConditionalOnBooleanProperty(name = "synccontext.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SyncContextProperties.class)
public final class SyncContextAutoConfiguration {

    static final String REGISTRY_BEAN = "rendererSyncContextRegistry";

    @Bean(name = REGISTRY_BEAN)
    @ConditionalOnMissingBean
    RendererSyncContextRegistry rendererSyncContextRegistry(SyncContextProperties properties,
            ConfigurableListableBeanFactory beanFactory, ObjectProvider<CallbackDecorator> decorator) {
        WebSocketScopeCheck.check(properties.getScope(), beanFactory);
        SyncContextExecutors.Resolved executor = SyncContextExecutors.resolve(properties.getExecutor(), beanFactory,
                REGISTRY_BEAN);
        ContextTemplate template = new ContextTemplate(executor.executor(), properties.getExecutor().id(),
                properties.getMaxBatch(), properties.getMaxQueueDepth(), properties.getBlockedThreshold(),
                properties.getShutdownTimeout(), decorator.getIfUnique(), properties.getMetrics().getSamplingInterval());
        RendererSyncContextRegistry registry = new RendererSyncContextRegistry(template, executor.owned());
        registry.statistics(properties.getScope().tag()); // the configured scope's meters exist from startup
        return registry;
    }

    @Bean
    static RendererSyncContextReleaser rendererSyncContextReleaser(ObjectProvider<RendererSyncContextRegistry> registry) {
        return new RendererSyncContextReleaser(registry);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.micrometer.context.ContextSnapshotFactory")
    static class ContextPropagationConfiguration {

        @Bean
        @ConditionalOnMissingBean
        CallbackDecorator syncContextCallbackDecorator() {
            return new ContextPropagationDecorator();
        }
    }

    /**
     * The injectable {@code rendererSyncContext} (a {@link ScopedRendererSyncContext} proxy) and, behind
     * it, one scoped target bean for the configured scope.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = Type.SERVLET)
    @ConditionalOnClass(SessionScope.class)
    @ConditionalOnMissingBean(RendererSyncContext.class)
    static class ServletScopeConfiguration {

        static final String TARGET = "scopedTarget.rendererSyncContext";

        @Bean(destroyMethod = "")
        RendererSyncContext rendererSyncContext(RendererSyncContextRegistry registry, SyncContextProperties properties,
                BeanFactory beanFactory) {
            return new ScopedRendererSyncContext(registry, properties.getScope().tag(),
                    () -> beanFactory.getBean(TARGET, RendererSyncContext.class));
        }

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnProperty(name = "synccontext.scope", havingValue = "session", matchIfMissing = true)
        static class SessionScoped {

            @Bean(name = TARGET, autowireCandidate = false, destroyMethod = "")
            @SessionScope(proxyMode = ScopedProxyMode.NO)
            RendererSyncContext sessionRendererSyncContext(RendererSyncContextRegistry registry) {
                return registry.create("session");
            }
        }

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnProperty(name = "synccontext.scope", havingValue = "request")
        static class RequestScoped {

            @Bean(name = TARGET, autowireCandidate = false, destroyMethod = "")
            @RequestScope(proxyMode = ScopedProxyMode.NO)
            RendererSyncContext requestRendererSyncContext(RendererSyncContextRegistry registry) {
                return registry.create("request");
            }
        }

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnProperty(name = "synccontext.scope", havingValue = "websocket")
        @ConditionalOnClass(name = "org.springframework.messaging.simp.SimpAttributes")
        static class WebSocketScoped {

            /** Deprecated setting: the STOMP session's own context (SyncContextWebSocketAutoConfiguration opens it). */
            @Bean(name = TARGET, autowireCandidate = false, destroyMethod = "")
            @Scope(scopeName = "websocket", proxyMode = ScopedProxyMode.NO)
            RendererSyncContext webSocketRendererSyncContext() {
                return new CurrentWebSocketSessionContext().getObject();
            }
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = Type.REACTIVE)
    @ConditionalOnClass(WebFluxConfigurer.class)
    static class WebFluxConfiguration {

        @Bean
        @ConditionalOnMissingBean
        WebSessionContexts syncContextWebSessionContexts(RendererSyncContextRegistry registry) {
            return new WebSessionContexts(registry, "session", Duration.ofSeconds(30));
        }

        @Bean
        WebFluxConfigurer syncContextWebFluxConfigurer(WebSessionContexts contexts) {
            return new WebFluxConfigurer() {
                @Override
                public void configureArgumentResolvers(ArgumentResolverConfigurer configurer) {
                    configurer.addCustomResolver(new RendererSyncContextArgumentResolver(contexts));
                }
            };
        }
    }
}
