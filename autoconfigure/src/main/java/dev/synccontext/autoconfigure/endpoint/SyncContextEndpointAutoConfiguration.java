package dev.synccontext.autoconfigure.endpoint;

import dev.synccontext.autoconfigure.durable.DurableOverview;
import dev.synccontext.autoconfigure.durable.DurableSection;
import dev.synccontext.autoconfigure.durable.LargestSnapshot;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;
import dev.synccontext.autoconfigure.SyncContextProperties;
import dev.synccontext.spring.live.LiveChannels;
import dev.synccontext.spring.session.SessionContexts;
import dev.synccontext.registry.SyncContextRegistry;

/**
 * The {@code synccontext} actuator endpoint; present only when it is exposed
 * ({@code management.endpoints.web.exposure.include}). With {@code synccontext-scenarios} on the class
 * path it is {@link SyncContextScenarioEndpoint} (GET and the benchmark POST), without it
 * {@link SyncContextEndpoint} (GET only). The class names are given as strings and each nested
 * configuration is read only when its condition holds, so nothing here loads a scenario class when the
 * jar is absent.
 */
@AutoConfiguration(after = SyncContextAutoConfiguration.class)
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnBean(SyncContextRegistry.class)
@EnableConfigurationProperties(EndpointProperties.class)
public final class SyncContextEndpointAutoConfiguration {

    /** A class of {@code synccontext-scenarios} that the POST needs. */
    static final String SCENARIO_RUNNER = "dev.synccontext.scenario.ScenarioRunner";

    /** {@code endpoint}, shown the sessions, details, live channels and durable state the application has. */
    private static <E extends SyncContextEndpoint> E shown(E endpoint, ObjectProvider<SessionContexts> sessions,
            EndpointProperties properties, ObjectProvider<LiveChannels> live, ObjectProvider<DurableSection> durable) {
        endpoint.showSessions(sessions.getIfAvailable());
        endpoint.showDetails(new DetailsVisibility(properties.getShowDetails(), properties.getRoles()), properties.getTop());
        LiveChannels channels = live.getIfAvailable();
        endpoint.showLiveChannels(channels == null ? null : channels.group());
        endpoint.showDurable(durableOverview(durable), largestSnapshots(durable));
        return endpoint;
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = SCENARIO_RUNNER)
    static class WithScenarios {

        @Bean
        @ConditionalOnMissingBean(SyncContextEndpoint.class)
        @ConditionalOnAvailableEndpoint(SyncContextEndpoint.class)
        SyncContextScenarioEndpoint syncContextEndpoint(SyncContextRegistry registry,
                SyncContextProperties properties, ObjectProvider<SessionContexts> sessions,
                EndpointProperties endpointProperties, ObjectProvider<LiveChannels> live,
                ObjectProvider<DurableSection> durable) {
            return shown(new SyncContextScenarioEndpoint(registry,
                    SyncContextEndpoint.settings(properties, registry.template()),
                    ScenarioRuns.forRegistry(registry, properties.getBenchmark().getMaxIterations(),
                            properties.getBenchmark().getMaxDuration())), sessions, endpointProperties, live, durable);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingClass(SCENARIO_RUNNER)
    static class WithoutScenarios {

        @Bean
        @ConditionalOnMissingBean(SyncContextEndpoint.class)
        @ConditionalOnAvailableEndpoint(SyncContextEndpoint.class)
        SyncContextEndpoint syncContextEndpoint(SyncContextRegistry registry,
                SyncContextProperties properties, ObjectProvider<SessionContexts> sessions,
                EndpointProperties endpointProperties, ObjectProvider<LiveChannels> live,
                ObjectProvider<DurableSection> durable) {
            return shown(new SyncContextEndpoint(registry,
                    SyncContextEndpoint.settings(properties, registry.template())), sessions, endpointProperties, live,
                    durable);
        }
    }

    /** Looked up at each GET with the details, as {@link #durableOverview} is. */
    static IntFunction<List<LargestSnapshot>> largestSnapshots(ObjectProvider<DurableSection> durable) {
        return top -> {
            DurableSection section = durable.getIfAvailable();
            return section == null ? List.of() : section.largestSnapshots(top);
        };
    }

    /** Looked up at each GET: the durable layer's bean may be made after the endpoint. */
    static Supplier<@Nullable DurableOverview> durableOverview(ObjectProvider<DurableSection> durable) {
        return () -> {
            DurableSection section = durable.getIfAvailable();
            return section == null ? null : section.overview();
        };
    }
}
