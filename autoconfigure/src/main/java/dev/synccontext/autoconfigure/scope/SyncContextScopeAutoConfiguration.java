package dev.synccontext.autoconfigure.scope;

import dev.synccontext.spring.scope.ContextBeanScope;
import dev.synccontext.spring.scope.ContextScoped;
import dev.synccontext.spring.scope.ContextScopedProxyFactoryBean;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;
import dev.synccontext.spring.websocket.WebSocketSessionContext;
import dev.synccontext.registry.ContextProxy;
import dev.synccontext.registry.SyncContextRegistry;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.config.BeanDefinition;
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
 * post-processor); it finds the registry and the current-context proxies on first use.
 */
@AutoConfiguration(after = SyncContextAutoConfiguration.class)
@ConditionalOnClass(RendererSyncContext.class)
@ConditionalOnBooleanProperty(name = "synccontext.enabled", matchIfMissing = true)
public final class SyncContextScopeAutoConfiguration {

    /** The proxies that name the current context on a thread outside any callback, tried in this order. */
    private static final String SCOPED_PROXY = "org.springframework.aop.scope.ScopedProxyFactoryBean";

    static final List<String> CURRENT_CONTEXT_PROXIES = List.of("rendererSyncContext", WebSocketSessionContext.BEAN);

    @Bean
    static BeanFactoryPostProcessor syncContextScopeRegistrar(Environment environment) {
        boolean strict = environment.getProperty("synccontext.context-scope.strict", Boolean.class, false);
        return beanFactory -> {
            beanFactory.registerScope(ContextScoped.SCOPE_NAME, new ContextBeanScope(
                    () -> beanFactory.getBean(SyncContextRegistry.class), () -> proxies(beanFactory), strict));
            useFastProxies(beanFactory);
        };
    }

    /**
     * Every scoped proxy whose target is context-scoped becomes a {@link ContextScopedProxyFactoryBean}, which
     * asks the scope directly instead of the bean factory on every call.
     */
    private static void useFastProxies(ConfigurableListableBeanFactory beanFactory) {
        for (String name : beanFactory.getBeanDefinitionNames()) {
            BeanDefinition definition = beanFactory.getBeanDefinition(name);
            if (!SCOPED_PROXY.equals(definition.getBeanClassName())) {
                continue;
            }
            Object target = definition.getPropertyValues().get("targetBeanName");
            if (target instanceof String targetName && beanFactory.containsBeanDefinition(targetName)
                    && ContextScoped.SCOPE_NAME.equals(beanFactory.getBeanDefinition(targetName).getScope())) {
                definition.setBeanClassName(ContextScopedProxyFactoryBean.class.getName());
            }
        }
    }

    private static List<ContextProxy> proxies(ConfigurableListableBeanFactory beanFactory) {
        List<ContextProxy> found = new ArrayList<>(2);
        for (String name : CURRENT_CONTEXT_PROXIES) {
            if (beanFactory.containsBean(name) && beanFactory.getBean(name) instanceof ContextProxy proxy) {
                found.add(proxy);
            }
        }
        return found;
    }
}
