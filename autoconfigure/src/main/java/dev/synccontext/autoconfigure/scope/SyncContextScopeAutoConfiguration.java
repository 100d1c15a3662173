package dev.synccontext.autoconfigure.scope;

import dev.synccontext.spring.scope.ContextScopeRegistrar;
import dev.synccontext.spring.scope.ContextScoped;
import dev.synccontext.spring.scope.ProxyableBeansCheck;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;
import dev.synccontext.registry.SyncContextRegistry;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The {@value ContextScoped#SCOPE_NAME} scope for {@link ContextScoped} beans, backed by the application's
 * {@link SyncContextRegistry}. The scope is registered before any bean is created (a bean factory
 * post-processor, the library's {@link ContextScopeRegistrar}, also used by {@code @EnableSyncContext}); it finds
 * the registry and the current-context proxies on first use.
 */
@AutoConfiguration(after = SyncContextAutoConfiguration.class)
@ConditionalOnClass(RendererSyncContext.class)
@ConditionalOnBooleanProperty(name = "synccontext.enabled", matchIfMissing = true)
public final class SyncContextScopeAutoConfiguration {

    @Bean
    static BeanFactoryPostProcessor syncContextScopeRegistrar(Environment environment) {
        return new ContextScopeRegistrar(
                environment.getProperty("synccontext.context-scope.strict", Boolean.class, false));
    }

    /** Fails the startup when a context-scoped or {@code @OnContext} class has methods its proxy cannot override. */
    @Bean
    static ProxyableBeansCheck syncContextProxyableBeansCheck(ConfigurableListableBeanFactory beanFactory) {
        return new ProxyableBeansCheck(beanFactory);
    }
}
