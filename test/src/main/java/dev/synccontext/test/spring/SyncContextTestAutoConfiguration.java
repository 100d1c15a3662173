package dev.synccontext.test.spring;

import dev.synccontext.CallbackDecorator;
import dev.synccontext.ContextClock;
import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;
import dev.synccontext.autoconfigure.SyncContextBuilderCustomizer;
import dev.synccontext.test.SyncContextTestKit;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * What {@link AutoConfigureSyncContextTest} imports: the kit, and the starter's three seams set to it
 * (the {@link ContextClock} bean the registry runs on, a {@link CallbackDecorator} bean composed with
 * the application's, and a {@link SyncContextBuilderCustomizer}, last in order, that sets the kit's
 * executor and unhandled-exception handler, and batch 1 for an exploring kit). Before the starter's
 * auto-configuration, so its registry sees them.
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

    /** Outermost of the decorators: the submit site is the submitter's, whatever the others do. */
    @Bean
    @Order(Ordered.HIGHEST_PRECEDENCE)
    CallbackDecorator syncContextTestDecorator(SyncContextTestKit kit) {
        return kit.decorator();
    }

    /** Last, so the kit's executor wins over an application customizer that sets another one. */
    @Bean
    @Order(Ordered.LOWEST_PRECEDENCE)
    SyncContextBuilderCustomizer syncContextTestCustomizer(SyncContextTestKit kit) {
        return builder -> {
            builder.executor(kit.executor()).unhandledExceptionHandler(kit.unhandledExceptionHandler());
            if (kit.seed().isPresent()) {
                builder.maxBatch(1);
            }
        };
    }
}
