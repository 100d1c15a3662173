package dev.synccontext.autoconfigure;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@code synccontext} actuator endpoint; present only when it is exposed
 * ({@code management.endpoints.web.exposure.include}).
 */
@AutoConfiguration(after = SyncContextAutoConfiguration.class)
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnBean(RendererSyncContextRegistry.class)
public final class SyncContextEndpointAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint(SyncContextEndpoint.class)
    SyncContextEndpoint syncContextEndpoint(RendererSyncContextRegistry registry, SyncContextProperties properties,
            ObjectProvider<SessionContexts> sessions) {
        return new SyncContextEndpoint(registry, SyncContextEndpoint.settings(properties, registry.template()),
                ScenarioRuns.forRegistry(registry, properties.getBenchmark().getMaxIterations(),
                        properties.getBenchmark().getMaxDuration()), sessions.getIfAvailable());
    }
}
