package dev.synccontext.autoconfigure.metrics;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.micrometer.ExecutorMetrics;
import dev.synccontext.micrometer.SyncContextMetrics;
import dev.synccontext.ExecutorStatistics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;
import dev.synccontext.spring.session.SessionContexts;
import dev.synccontext.registry.SyncContextRegistry;

/**
 * Exports the contexts' statistics to Micrometer: one set of {@code synccontext.*} meters per scope
 * (see {@link SyncContextMetrics}), including scopes first used after startup, the session counters, and
 * the default executor's {@code synccontext.executor.*} meters ({@link ExecutorMetrics}; that pool is shared by
 * every context and live channel of the JVM that is given no other executor, so they are bound whichever
 * executor {@code synccontext.executor} picks).
 */
@AutoConfiguration(after = SyncContextAutoConfiguration.class,
        afterName = "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration")
@ConditionalOnClass({ MeterRegistry.class, SyncContextMetrics.class })
@ConditionalOnBean(SyncContextRegistry.class)
@ConditionalOnBooleanProperty(name = "synccontext.metrics.enabled", matchIfMissing = true)
public final class SyncContextMetricsAutoConfiguration {

    @Bean
    MeterBinder syncContextMeterBinder(SyncContextRegistry registry, ObjectProvider<SessionContexts> sessions) {
        return meterRegistry -> {
            registry.onEachScope(statistics -> new SyncContextMetrics(statistics).bindTo(meterRegistry));
            sessions.ifAvailable(s -> new SessionContextsMetrics(s).bindTo(meterRegistry));
            if (RendererSyncContext.defaultExecutor() instanceof ExecutorStatistics executor) {
                new ExecutorMetrics(executor).bindTo(meterRegistry);
            }
        };
    }
}
