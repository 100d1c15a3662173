package dev.synccontext.autoconfigure;

import dev.synccontext.CallbackDecorator;
import dev.synccontext.RendererSyncContext;
import jakarta.servlet.http.HttpSessionListener;
import java.time.Duration;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
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
import org.springframework.core.env.Environment;
import org.springframework.web.context.annotation.RequestScope;
import org.springframework.web.context.annotation.SessionScope;
import org.springframework.web.reactive.result.method.annotation.ArgumentResolverConfigurer;
import org.springframework.web.reactive.config.WebFluxConfigurer;

/**
 * Auto-configuration for {@link RendererSyncContext}: the {@link RendererSyncContextRegistry}, a
 * scoped {@code rendererSyncContext} bean (servlet web applications), the node's
 * {@link SessionContexts} (HTTP-session and {@code WebSession} contexts found by a small handle in the
 * session) with their release paths, a WebFlux argument resolver, and context propagation for queued
 * callbacks.
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
            ConfigurableListableBeanFactory beanFactory, ObjectProvider<CallbackDecorator> decorator,
            Environment environment) {
        WebSocketScopeCheck.check(properties.getScope(), beanFactory);
        SyncContextExecutors.Resolved executor = SyncContextExecutors.resolve(properties.getExecutor(), environment,
                beanFactory, REGISTRY_BEAN);
        ContextTemplate template = new ContextTemplate(executor.executor(), executor.kind().id(),
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
                BeanFactory beanFactory, ObjectProvider<SessionContexts> sessionContexts) {
            // Session scope: the session holds only a handle, the context is this node's (no session-scoped
            // bean, so nothing un-serializable or any destruction callback ever enters the session).
            ObjectFactory<RendererSyncContext> target = properties.getScope() == SyncContextProperties.Scope.SESSION
                    ? new HttpSessionContexts(sessionContexts.getObject())::current
                    : () -> beanFactory.getBean(TARGET, RendererSyncContext.class);
            return new ScopedRendererSyncContext(registry, properties.getScope().tag(), target);
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

    /**
     * HTTP-session and {@code WebSession} contexts: one per session per node, found by the handle the
     * session holds, released when the session ends (listener or events), when idle, or at shutdown.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication
    static class SessionContextsConfiguration {

        @Bean(destroyMethod = "close")
        @ConditionalOnMissingBean
        SessionContexts syncContextSessionContexts(RendererSyncContextRegistry registry,
                SyncContextProperties properties, Environment environment) {
            SessionContexts contexts = new SessionContexts(registry, SyncContextProperties.Scope.SESSION.tag(),
                    SessionSettings.nodeId(properties.getSession().getNodeId()),
                    SessionSettings.idleTimeout(properties.getSession().getIdleTimeout(), environment));
            contexts.startIdleEviction();
            return contexts;
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = Type.SERVLET)
    @ConditionalOnClass(name = "jakarta.servlet.http.HttpSessionListener")
    static class ServletSessionListenerConfiguration {

        /** Registered with the container by Boot, and handed Spring Session's destroyed events by Spring Session. */
        @Bean
        HttpSessionListener syncContextSessionListener(SessionContexts contexts) {
            return new SessionContextReleasingListener(contexts);
        }
    }

    /** Completed futures from controllers are written at once (see {@link CompletedFutureReturnValueHandler}). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = Type.SERVLET)
    @ConditionalOnClass(name = "org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter")
    @ConditionalOnBooleanProperty(name = "synccontext.mvc.write-completed-futures", matchIfMissing = true)
    static class WebMvcConfiguration {

        @Bean
        static BeanPostProcessor syncContextCompletedFutureReturnValueHandler() {
            return CompletedFutureReturnValueHandler.installer();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = Type.REACTIVE)
    @ConditionalOnClass(WebFluxConfigurer.class)
    static class WebFluxConfiguration {

        @Bean
        @ConditionalOnMissingBean
        WebSessionContexts syncContextWebSessionContexts(SessionContexts contexts) {
            return new WebSessionContexts(contexts, Duration.ofSeconds(30));
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

        @Bean
        @ConditionalOnClass(name = "org.springframework.session.events.SessionDestroyedEvent")
        SessionDestroyedEventReleaser syncContextSessionDestroyedEventReleaser(SessionContexts contexts) {
            return new SessionDestroyedEventReleaser(contexts);
        }
    }
}
