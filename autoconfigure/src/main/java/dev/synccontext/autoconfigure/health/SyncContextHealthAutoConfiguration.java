package dev.synccontext.autoconfigure.health;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.durable.StateStore;
import dev.synccontext.ExecutorStatistics;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;
import dev.synccontext.autoconfigure.durable.SyncContextDurableAutoConfiguration;
import dev.synccontext.registry.SyncContextRegistry;

/**
 * Optional health contributors, on with {@code synccontext.health.enabled=true}: {@code syncContextExecutor}
 * (the default executor's saturation) and, when the application has a durable {@link StateStore},
 * {@code syncContextStore} (whether it answers). They join the health endpoint's overall status; Boot's
 * readiness group holds only what {@code management.endpoint.health.group.readiness.include} names, so they
 * stay out of it unless added there.
 */
@AutoConfiguration(after = { SyncContextAutoConfiguration.class, SyncContextDurableAutoConfiguration.class })
@ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
@ConditionalOnBean(SyncContextRegistry.class)
@ConditionalOnBooleanProperty(name = "synccontext.health.enabled")
@EnableConfigurationProperties(HealthProperties.class)
public final class SyncContextHealthAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "syncContextExecutorHealthIndicator")
    ExecutorHealthIndicator syncContextExecutorHealthIndicator(HealthProperties properties) {
        return new ExecutorHealthIndicator((ExecutorStatistics) RendererSyncContext.defaultExecutor(),
                properties.getExecutorSaturation());
    }

    @Bean
    @ConditionalOnBean(StateStore.class)
    @ConditionalOnMissingBean(name = "syncContextStoreHealthIndicator")
    StateStoreHealthIndicator syncContextStoreHealthIndicator(StateStore store) {
        return new StateStoreHealthIndicator(store);
    }
}
