package dev.synccontext.autoconfigure;

import dev.synccontext.spring.SyncContextBuilderCustomizer;
import dev.synccontext.spring.SyncContextReleaser;
import dev.synccontext.spring.config.RegistryExtensions;

import dev.synccontext.CallbackDecorator;
import dev.synccontext.ContextClock;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.registry.ContextTemplate;
import dev.synccontext.registry.SyncContextRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * The root of the starter's wiring: the {@link SyncContextRegistry} every context of the application is
 * built by (its executor and settings from {@code synccontext.*}, every {@link CallbackDecorator} bean composed
 * in {@code @Order}, every {@link SyncContextBuilderCustomizer} bean applied in {@code @Order}), and the releaser that closes
 * scoped contexts when their scope ends. Each part builds on it in its own package: HTTP and Web sessions
 * ({@code session}), WebSocket and STOMP ({@code websocket}), WebFlux ({@code webflux}), Spring MVC
 * ({@code mvc}), context propagation ({@code propagation}), metrics ({@code metrics}) and the actuator
 * endpoint ({@code endpoint}).
 *
 * <p>Ordered after {@link TaskExecutionAutoConfiguration}: a {@code RendererSyncContext} is an
 * {@code Executor}, and Boot's {@code applicationTaskExecutor} backs off when it sees one.
 */
@AutoConfiguration(after = TaskExecutionAutoConfiguration.class)
@ConditionalOnClass(RendererSyncContext.class)
@ConditionalOnBooleanProperty(name = "synccontext.enabled", matchIfMissing = true)
@EnableConfigurationProperties(SyncContextProperties.class)
public final class SyncContextAutoConfiguration {

    /** The registry's bean name. */
    public static final String REGISTRY_BEAN = "syncContextRegistry";

    @Bean(name = REGISTRY_BEAN)
    @ConditionalOnMissingBean
    SyncContextRegistry syncContextRegistry(SyncContextProperties properties,
            ConfigurableListableBeanFactory beanFactory, ObjectProvider<CallbackDecorator> decorators,
            ObjectProvider<SyncContextBuilderCustomizer> customizers, ObjectProvider<ContextClock> clock,
            Environment environment) {
        WebSocketScopeCheck.check(properties.getScope(), beanFactory);
        SyncContextExecutors.Resolved executor = SyncContextExecutors.resolve(properties.getExecutor(), environment,
                beanFactory, REGISTRY_BEAN);
        ContextTemplate template = new ContextTemplate(executor.executor(), executor.kind().id(),
                properties.getMaxBatch(), properties.getMaxQueueDepth(), properties.getBlockedThreshold(),
                properties.getShutdownTimeout(), RegistryExtensions.decorator(decorators),
                properties.getMetrics().getSamplingInterval());
        SyncContextRegistry registry = new SyncContextRegistry(template, executor.owned(),
                RegistryExtensions.builderCustomizers(customizers), clock.getIfUnique(ContextClock::system));
        registry.statistics(properties.getScope().tag()); // the configured scope's meters exist from startup
        return registry;
    }

    @Bean
    static SyncContextReleaser syncContextReleaser(ObjectProvider<SyncContextRegistry> registry) {
        return new SyncContextReleaser(registry);
    }
}
