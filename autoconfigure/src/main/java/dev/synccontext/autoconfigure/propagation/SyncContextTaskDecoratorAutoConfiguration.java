package dev.synccontext.autoconfigure.propagation;

import dev.synccontext.spring.propagation.TaskDecoratorCallbackDecorator;

import dev.synccontext.CallbackDecorator;
import dev.synccontext.RendererSyncContext;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.task.TaskDecorator;
import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;

/**
 * Adapts the application's single {@link TaskDecorator} bean to the contexts' {@link CallbackDecorator}.
 *
 * <p>Which decorator wraps queued callbacks, first match wins:
 * <ol>
 *   <li>the application's own {@code CallbackDecorator} bean;</li>
 *   <li>its single (or primary) {@code TaskDecorator} bean, adapted here: the application has said how its
 *       asynchronous tasks carry context, and Boot applies the same decorator to its executors;</li>
 *   <li>with {@code io.micrometer:context-propagation} on the class path, Micrometer context propagation
 *       ({@link SyncContextAutoConfiguration});</li>
 *   <li>none.</li>
 * </ol>
 * Ordered before {@link SyncContextAutoConfiguration}, whose context-propagation decorator backs off when
 * this one exists. To have both, declare a {@code CallbackDecorator} that composes them.
 */
@AutoConfiguration(before = SyncContextAutoConfiguration.class, after = TaskExecutionAutoConfiguration.class)
@ConditionalOnClass({ RendererSyncContext.class, TaskDecorator.class })
@ConditionalOnBooleanProperty(name = "synccontext.enabled", matchIfMissing = true)
public final class SyncContextTaskDecoratorAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(CallbackDecorator.class)
    @ConditionalOnSingleCandidate(TaskDecorator.class)
    CallbackDecorator syncContextTaskDecoratorCallbackDecorator(TaskDecorator taskDecorator) {
        return new TaskDecoratorCallbackDecorator(taskDecorator);
    }
}
