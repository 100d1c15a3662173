package dev.synccontext.autoconfigure.session;

import dev.synccontext.spring.session.CurrentHttpSessionContext;
import dev.synccontext.spring.session.SessionContextReleasingListener;
import dev.synccontext.spring.session.SessionContexts;
import dev.synccontext.spring.session.SessionDestroyedEventReleaser;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.ScopedSyncContext;
import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;
import dev.synccontext.autoconfigure.SyncContextProperties;
import dev.synccontext.registry.SyncContextRegistry;
import jakarta.servlet.http.HttpSessionListener;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.web.context.annotation.RequestScope;
import org.springframework.web.context.annotation.SessionScope;
import org.springframework.context.annotation.ScopedProxyMode;
import dev.synccontext.spring.websocket.WebSocketSessionContext;

/**
 * HTTP-session and {@code WebSession} contexts: one per session per node ({@link SessionContexts}), found
 * by the small handle the session holds, released when the session ends (the container's listener, Spring
 * Session's destroyed events), when idle on this node, or at shutdown; and, in servlet applications, the
 * injected {@code rendererSyncContext}: a {@link ScopedSyncContext} that resolves to the running
 * callback's context, else to the current session's (or, with {@code synccontext.scope=request}, the
 * request's).
 *
 * <p>Ordered before the WebSocket part, whose {@code @WebSocketSessionContext} bean is also a
 * {@code RendererSyncContext} and must not make the injected one back off.
 */
@AutoConfiguration(after = SyncContextAutoConfiguration.class,
        beforeName = "dev.synccontext.autoconfigure.websocket.SyncContextWebSocketAutoConfiguration")
@ConditionalOnWebApplication
@ConditionalOnBean(SyncContextRegistry.class)
public final class SyncContextSessionAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    SessionContexts syncContextSessionContexts(SyncContextRegistry registry,
            SyncContextProperties properties, Environment environment) {
        SessionContexts contexts = new SessionContexts(registry, SyncContextProperties.Scope.SESSION.tag(),
                SessionSettings.nodeId(properties.getSession().getNodeId()),
                SessionSettings.idleTimeout(properties.getSession().getIdleTimeout(), environment));
        contexts.startIdleEviction();
        return contexts;
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

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = Type.REACTIVE)
    @ConditionalOnClass(name = "org.springframework.session.events.SessionDestroyedEvent")
    static class ReactiveSessionEventsConfiguration {

        @Bean
        SessionDestroyedEventReleaser syncContextSessionDestroyedEventReleaser(SessionContexts contexts) {
            return new SessionDestroyedEventReleaser(contexts);
        }
    }

    /**
     * The injectable {@code rendererSyncContext} (a {@link ScopedSyncContext} proxy) and, behind it, one
     * scoped target bean for the configured scope.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = Type.SERVLET)
    @ConditionalOnClass(SessionScope.class)
    @ConditionalOnMissingBean(RendererSyncContext.class)
    static class InjectedContextConfiguration {

        @Bean(destroyMethod = "")
        RendererSyncContext rendererSyncContext(SyncContextRegistry registry, SyncContextProperties properties,
                BeanFactory beanFactory, ObjectProvider<SessionContexts> sessionContexts) {
            // Session scope: the session holds only a handle, the context is this node's (no session-scoped
            // bean, so nothing un-serializable or any destruction callback ever enters the session).
            ObjectFactory<RendererSyncContext> target = properties.getScope() == SyncContextProperties.Scope.SESSION
                    ? new CurrentHttpSessionContext(sessionContexts.getObject())::current
                    : () -> beanFactory.getBean(ScopedSyncContext.TARGET_BEAN, RendererSyncContext.class);
            return new ScopedSyncContext(registry, properties.getScope().tag(), target);
        }

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnProperty(name = "synccontext.scope", havingValue = "request")
        static class RequestScoped {

            @Bean(name = ScopedSyncContext.TARGET_BEAN, autowireCandidate = false, destroyMethod = "")
            @RequestScope(proxyMode = ScopedProxyMode.NO)
            RendererSyncContext requestRendererSyncContext(SyncContextRegistry registry) {
                return registry.create("request");
            }
        }
    }
}
