package dev.synccontext.spring.config;

import dev.synccontext.CallbackDecorator;
import dev.synccontext.ContextClock;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.SyncContextDefaults;
import dev.synccontext.registry.ContextTemplate;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.spring.SyncContextBuilderCustomizer;
import dev.synccontext.spring.SyncContextReleaser;
import dev.synccontext.spring.scope.ContextScopeRegistrar;
import dev.synccontext.spring.scope.ProxyableBeansCheck;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * What {@link EnableSyncContext} declares: the registry (unless the application has one), the context scope and
 * the releaser, under the bean names Spring Boot's auto-configuration uses. Imported last (see
 * {@link SyncContextConfigurationSelector}).
 */
@Configuration(proxyBeanMethods = false)
final class SyncContextConfiguration {

    /** The registry's bean name, as in Spring Boot's auto-configuration. */
    static final String REGISTRY_BEAN = "syncContextRegistry";

    /** How the executor is described (the name Spring Boot's {@code synccontext.executor} gives it). */
    private static final String ELASTIC = "elastic";

    @Bean(name = REGISTRY_BEAN)
    @Conditional(NoRegistryDefined.class)
    SyncContextRegistry syncContextRegistry(ObjectProvider<CallbackDecorator> decorators,
            ObjectProvider<SyncContextBuilderCustomizer> customizers, ObjectProvider<ContextClock> clock) {
        ContextTemplate template = new ContextTemplate(RendererSyncContext.defaultExecutor(), ELASTIC,
                SyncContextDefaults.MAX_BATCH, SyncContextDefaults.MAX_QUEUE_DEPTH,
                SyncContextDefaults.BLOCKED_THRESHOLD, SyncContextDefaults.SHUTDOWN_TIMEOUT,
                RegistryExtensions.decorator(decorators), SyncContextDefaults.SAMPLING_INTERVAL);
        return new SyncContextRegistry(template, null, RegistryExtensions.builderCustomizers(customizers),
                clock.getIfUnique(ContextClock::system));
    }

    @Bean
    static BeanFactoryPostProcessor syncContextScopeRegistrar() {
        return new ContextScopeRegistrar(false);
    }

    /** Fails the startup when a context-scoped or {@code @OnContext} class has methods its proxy cannot override. */
    @Bean
    static ProxyableBeansCheck syncContextProxyableBeansCheck(ConfigurableListableBeanFactory beanFactory) {
        return new ProxyableBeansCheck(beanFactory);
    }

    @Bean
    static SyncContextReleaser syncContextReleaser(ObjectProvider<SyncContextRegistry> registry) {
        return new SyncContextReleaser(registry);
    }

    /** Whether the application has defined no {@link SyncContextRegistry}; by declared type, creating nothing. */
    static final class NoRegistryDefined implements Condition {

        @Override
        public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
            ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
            return beanFactory == null
                    || beanFactory.getBeanNamesForType(SyncContextRegistry.class, true, false).length == 0;
        }
    }
}
