package dev.synccontext.spring.scope;

import dev.synccontext.registry.ContextProxy;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.spring.websocket.WebSocketSessionContext;
import java.util.ArrayList;
import java.util.List;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;

/**
 * Registers the {@value ContextScoped#SCOPE_NAME} scope for {@link ContextScoped} beans, backed by the
 * application's {@link SyncContextRegistry}.
 *
 * <p>Guarantees: the scope is registered before any bean is created (this is a bean factory post-processor,
 * so declare it from a {@code static} {@code @Bean} method); it is also a singleton named {@value #SCOPE_BEAN},
 * injectable as {@link ContextBeanScope}; every scoped proxy whose target is context-scoped becomes a
 * {@link ContextScopedProxyFactoryBean}. The registry and the current-context proxies
 * ({@code rendererSyncContext}, then {@value WebSocketSessionContext#BEAN}) are looked up on the scope's first
 * use, not here: they are ordinary beans, created later.
 *
 * <p>Used by both {@code @EnableSyncContext} and Spring Boot's auto-configuration, so the two register the
 * same scope.
 */
public final class ContextScopeRegistrar implements BeanFactoryPostProcessor {

    /** The scope's bean name. */
    public static final String SCOPE_BEAN = "syncContextBeanScope";

    /** The proxies that name the current context on a thread outside any callback, tried in this order. */
    private static final List<String> CURRENT_CONTEXT_PROXIES = List.of("rendererSyncContext", WebSocketSessionContext.BEAN);

    private static final String SCOPED_PROXY = "org.springframework.aop.scope.ScopedProxyFactoryBean";

    private final boolean strict;

    /**
     * @param strict whether a context-scoped bean used on a thread outside any callback fails instead of
     *     resolving through the current-context proxies (see {@link ContextBeanScope})
     */
    public ContextScopeRegistrar(boolean strict) {
        this.strict = strict;
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
        ContextBeanScope scope = new ContextBeanScope(() -> beanFactory.getBean(SyncContextRegistry.class),
                () -> proxies(beanFactory), strict,
                name -> beanFactory.findAnnotationOnBean(name, ContextScoped.class, false));
        beanFactory.registerScope(ContextScoped.SCOPE_NAME, scope);
        beanFactory.registerSingleton(SCOPE_BEAN, scope); // for ContextBeanScope.find(context, type)
        useFastProxies(beanFactory);
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
