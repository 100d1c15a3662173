package dev.synccontext.test.spring;

import dev.synccontext.CallbackDecorator;
import dev.synccontext.ContextClock;
import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;
import dev.synccontext.spring.SyncContextBuilderCustomizer;
import dev.synccontext.test.SyncContextTestKit;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * What {@link AutoConfigureSyncContextTest} imports: the kit, and the starter's two seams set to it (the
 * {@link ContextClock} bean the registry runs on, and a {@link SyncContextBuilderCustomizer}, last in
 * order, that sets the kit's executor, unhandled-exception handler and submit-site decorator, and batch
 * 1 for an exploring kit). Before the starter's auto-configuration, so its registry sees them. With
 * {@code @Durable} beans, the node lease is renewed on the kit's executor ({@link KitLeaseRenewal}).
 */
@AutoConfiguration(before = SyncContextAutoConfiguration.class)
@ConditionalOnClass(SyncContextAutoConfiguration.class)
public final class SyncContextTestAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    SyncContextTestKit syncContextTestKit() {
        return SyncContextTestKit.create();
    }

    @Bean
    ContextClock syncContextTestClock(SyncContextTestKit kit) {
        return kit.clock();
    }

    /** Static: a post-processor is made before the other beans, and needs no instance of this class. */
    @Bean
    static BeanPostProcessor syncContextTestLeaseRenewal(ObjectProvider<SyncContextTestKit> kit) {
        return new KitLeaseRenewal(kit);
    }

    /**
     * Last, so the kit's executor wins over an application customizer that sets another one. The kit's
     * decorator wraps the application's {@link CallbackDecorator} beans, composed as the starter
     * composes them (not a decorator bean of its own: the starter's propagation decorators back off
     * when there is one).
     */
    @Bean
    @Order(Ordered.LOWEST_PRECEDENCE)
    SyncContextBuilderCustomizer syncContextTestCustomizer(SyncContextTestKit kit,
            ObjectProvider<CallbackDecorator> decorators) {
        return builder -> {
            builder.executor(kit.executor())
                    .unhandledExceptionHandler(kit.unhandledExceptionHandler())
                    .queuedCallbackDecorator(new KitOutermostDecorator(kit.decorator(),
                            decorators.orderedStream().toList()));
            if (kit.seed().isPresent()) {
                builder.maxBatch(1);
            }
        };
    }
}
