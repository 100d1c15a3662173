package dev.synccontext.autoconfigure.propagation;

import dev.synccontext.spring.propagation.ContextPropagationDecorator;

import dev.synccontext.CallbackDecorator;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Context propagation for queued callbacks: with Micrometer's {@code context-propagation} on the class
 * path, a queued callback runs with the thread-locals (MDC, observations, security) of the thread that
 * queued it ({@link ContextPropagationDecorator}). Backs off when the application has a
 * {@link CallbackDecorator} of its own, or when {@link SyncContextTaskDecoratorAutoConfiguration} adapted
 * the application's single {@code TaskDecorator}.
 */
@AutoConfiguration(before = SyncContextAutoConfiguration.class, after = SyncContextTaskDecoratorAutoConfiguration.class)
@ConditionalOnClass(value = RendererSyncContext.class, name = "io.micrometer.context.ContextSnapshotFactory")
@ConditionalOnBooleanProperty(name = "synccontext.enabled", matchIfMissing = true)
public final class SyncContextPropagationAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    CallbackDecorator syncContextCallbackDecorator() {
        return new ContextPropagationDecorator();
    }
}
