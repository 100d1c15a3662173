package dev.synccontext.autoconfigure.durable;

import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.spring.durable.DurableType;
import dev.synccontext.spring.durable.InMemoryStateStore;
import dev.synccontext.spring.durable.SnapshotCodec;
import dev.synccontext.spring.durable.StateStore;
import dev.synccontext.spring.durable.redis.RedisStateStore;
import dev.synccontext.spring.durable.session.SessionUnavailableWebExceptionHandler;
import dev.synccontext.spring.durable.session.DurableBeans;
import dev.synccontext.spring.durable.session.DurableContexts;
import dev.synccontext.spring.durable.session.DurableSettings;
import dev.synccontext.spring.durable.session.WriteThrough;
import dev.synccontext.spring.scope.ContextBeanScope;
import dev.synccontext.spring.scope.ContextScoped;
import dev.synccontext.spring.session.SessionContexts;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * State that survives a deploy: when the application declares {@code @Durable} context-scoped beans, a
 * {@link DurableContexts} keeps them in a {@link StateStore} ({@link RedisStateStore} on the application's
 * {@code RedisConnectionFactory}, Spring Session's; else an {@link InMemoryStateStore}, one node only), through the
 * application's {@link JsonMapper}. Without a durable bean nothing here exists.
 */
@AutoConfiguration(afterName = { "dev.synccontext.autoconfigure.session.SyncContextSessionAutoConfiguration",
        "dev.synccontext.autoconfigure.scope.SyncContextScopeAutoConfiguration",
        "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration" })
@ConditionalOnClass(JsonMapper.class)
@ConditionalOnBean({ SyncContextRegistry.class, SessionContexts.class })
@ConditionalOnBooleanProperty(name = "synccontext.durable.enabled", matchIfMissing = true)
@Conditional(DurableBeanDefinitions.OnDurableBeans.class)
@EnableConfigurationProperties(DurableProperties.class)
public final class SyncContextDurableAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(RedisConnectionFactory.class)
    static class RedisStore {

        @Bean(destroyMethod = "close")
        @ConditionalOnMissingBean(StateStore.class)
        @ConditionalOnBean(RedisConnectionFactory.class)
        RedisStateStore syncContextRedisStateStore(RedisConnectionFactory connections, DurableProperties properties) {
            return new RedisStateStore(connections, properties.getKeyPrefix());
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class InMemoryStore {

        // Not with a RedisConnectionFactory either: nested configurations are parsed in no guaranteed order, and
        // this one parsed first would otherwise take the place of the Redis store (it did, in the sample on Redis).
        @Bean
        @ConditionalOnMissingBean(value = StateStore.class,
                type = "org.springframework.data.redis.connection.RedisConnectionFactory")
        InMemoryStateStore syncContextInMemoryStateStore(SyncContextRegistry registry) {
            return new InMemoryStateStore(registry.clock());
        }
    }

    /** Writes snapshots and renews the lease off every context; two threads, a guess that a store write is short. */
    @Bean(name = "syncContextDurableWriter", destroyMethod = "shutdown")
    ExecutorService syncContextDurableWriter() {
        AtomicInteger count = new AtomicInteger();
        return Executors.newFixedThreadPool(2, task -> {
            Thread thread = new Thread(task, "synccontext-durable-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Renews the node lease on a thread of its own, so that a burst of snapshot writes never delays it. */
    @Bean(name = "syncContextDurableLeaseRenewer", destroyMethod = "shutdown")
    ExecutorService syncContextDurableLeaseRenewer() {
        return Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "synccontext-durable-lease");
            thread.setDaemon(true);
            return thread;
        });
    }

    @Bean(destroyMethod = "close")
    DurableContexts syncContextDurableContexts(SyncContextRegistry registry, StateStore store,
            SessionContexts sessions, ObjectProvider<JsonMapper> json, DurableProperties properties,
            ConfigurableListableBeanFactory beanFactory, ObjectProvider<DurableType<?>> declaredTypes,
            @org.springframework.beans.factory.annotation.Qualifier("syncContextDurableWriter") ExecutorService writer,
            @org.springframework.beans.factory.annotation.Qualifier("syncContextDurableLeaseRenewer") ExecutorService renewer) {
        JsonMapper mapper = json.getIfAvailable(() -> JsonMapper.builder().build());
        Map<String, DurableType<?>> declared = new LinkedHashMap<>();
        declaredTypes.orderedStream().forEach(type -> declared.put(type.name(), type));
        Map<String, DurableType<?>> types = new LinkedHashMap<>();
        SnapshotCodec.Builder codec = SnapshotCodec.builder(mapper)
                .maxBytes((int) Math.min(Integer.MAX_VALUE, properties.getSizeBudget().toBytes()));
        DurableBeanDefinitions.find(beanFactory).forEach((name, type) -> {
            DurableType<?> checked = DurableBeans.typeOf(name, type, mapper);
            DurableType<?> withSteps = declared.getOrDefault(checked.name(), checked);
            types.put(name, withSteps);
            codec.register(withSteps);
        });
        DurableContexts durable = new DurableContexts(registry, store, codec.build(), mapper, types,
                new DurableSettings(properties.getNodeLeaseTtl(), properties.getHandOffTimeout(),
                        properties.getDebounce(), sessions.idleTimeout(), properties.isWriteThrough()),
                sessions.nodeId(), writer, renewer);
        if (!(beanFactory.getRegisteredScope(ContextScoped.SCOPE_NAME) instanceof ContextBeanScope scope)) {
            throw new IllegalStateException("@Durable beans need the '" + ContextScoped.SCOPE_NAME + "' scope of"
                    + " synccontext's auto-configuration; it is not registered (synccontext.enabled=false?)");
        }
        scope.track(durable);
        sessions.listen(durable);
        durable.start();
        return durable;
    }

    /** An {@code @OnContext} answer waits for its snapshot's accepted write. */
    @Bean
    @ConditionalOnBooleanProperty(name = "synccontext.durable.write-through")
    WriteThrough syncContextDurableWriteThrough(DurableContexts durable) {
        return new WriteThrough(durable);
    }

    /** WebFlux: a session unavailable here answers 503 with its {@code Retry-After} (Boot's handler drops it). */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    @ConditionalOnClass(name = "reactor.core.publisher.Mono")
    static class WebFluxAnswers {

        @Bean
        static SessionUnavailableWebExceptionHandler syncContextSessionUnavailableWebExceptionHandler() {
            return new SessionUnavailableWebExceptionHandler();
        }
    }

    /** The durable section of {@code /actuator/synccontext}. */
    @Bean
    DurableSection syncContextDurableSection(DurableContexts durable, StateStore store) {
        return new DurableSection(durable, store);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    static class Metrics {

        @Bean
        MeterBinder syncContextDurableMeterBinder(DurableContexts durable) {
            return new DurableMetrics(durable);
        }
    }
}
