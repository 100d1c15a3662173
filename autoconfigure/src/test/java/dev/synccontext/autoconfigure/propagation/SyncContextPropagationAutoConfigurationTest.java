package dev.synccontext.autoconfigure.propagation;












import dev.synccontext.spring.propagation.TaskDecoratorCallbackDecoratorTest;

import dev.synccontext.spring.propagation.ContextPropagationDecorator;
import dev.synccontext.spring.propagation.TaskDecoratorCallbackDecorator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.CallbackDecorator;
import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;
import dev.synccontext.autoconfigure.session.SyncContextSessionAutoConfiguration;
import dev.synccontext.registry.SyncContextRegistry;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.task.TaskDecorator;

/**
 * Conditions of the propagation part's auto-configurations: which {@link CallbackDecorator} the
 * registry's contexts get (the application's own, its single {@code TaskDecorator} adapted, or context
 * propagation).
 */
class SyncContextPropagationAutoConfigurationTest {

    private final ApplicationContextRunner plain = new ApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(SyncContextAutoConfiguration.class, SyncContextTaskDecoratorAutoConfiguration.class,
                    SyncContextPropagationAutoConfiguration.class));

    private final WebApplicationContextRunner servlet = new WebApplicationContextRunner().withConfiguration(
            AutoConfigurations.of(SyncContextAutoConfiguration.class, SyncContextSessionAutoConfiguration.class,
                    SyncContextTaskDecoratorAutoConfiguration.class, SyncContextPropagationAutoConfiguration.class));

    // ---------------------------------------------------------------- TaskDecorator

    @Test
    void aSingleTaskDecoratorBecomesTheCallbackDecorator() {
        withTaskDecorator("tenantTaskDecorator", "acme").run(context -> {
            assertThat(context).hasSingleBean(CallbackDecorator.class);
            CallbackDecorator decorator = context.getBean(SyncContextRegistry.class).template().decorator();
            assertThat(decorator).isInstanceOf(TaskDecoratorCallbackDecorator.class);
            String[] seen = new String[1];
            Runnable read = () -> seen[0] = TaskDecoratorCallbackDecoratorTest.TENANT.get();
            decorator.decorate(read).run();
            assertThat(seen[0]).isEqualTo("acme");
        });
    }

    @Test
    void theApplicationsCallbackDecoratorWinsOverItsTaskDecorator() {
        withTaskDecorator("tenantTaskDecorator", "acme").withUserConfiguration(OwnCallbackDecorator.class)
                .run(context -> {
                    assertThat(context).hasSingleBean(CallbackDecorator.class);
                    assertThat(context.getBean(SyncContextRegistry.class).template().decorator())
                            .isSameAs(OwnCallbackDecorator.INSTANCE);
                });
    }

    @Test
    void twoTaskDecoratorsWithoutAPrimaryLeaveContextPropagationInCharge() {
        WebApplicationContextRunner two = withTaskDecorator("first", "one").withBean("second", TaskDecorator.class,
                () -> TaskDecoratorCallbackDecoratorTest.tenant("two"));
        two.run(context -> {
            assertThat(context).hasSingleBean(CallbackDecorator.class);
            assertThat(context.getBean(SyncContextRegistry.class).template().decorator())
                    .isInstanceOf(ContextPropagationDecorator.class);
        });
        two.withBean("primary", TaskDecorator.class, () -> TaskDecoratorCallbackDecoratorTest.tenant("primary"),
                definition -> definition.setPrimary(true)).run(context ->
                assertThat(context.getBean(SyncContextRegistry.class).template().decorator())
                        .isInstanceOf(TaskDecoratorCallbackDecorator.class));
    }

    @Test
    void withoutATaskDecoratorContextPropagationStaysTheDefault() {
        servlet.run(context -> assertThat(context.getBean(SyncContextRegistry.class).template().decorator())
                .isInstanceOf(ContextPropagationDecorator.class));
    }

    @Test
    void contextPropagationDecoratesQueuedCallbacksWhenPresent() {
        plain.run(context -> {
            assertThat(context).hasSingleBean(CallbackDecorator.class);
            assertThat(context.getBean(SyncContextRegistry.class).template().decorator())
                    .isSameAs(context.getBean(CallbackDecorator.class));
        });
    }

    @Test
    void noDecoratorWithoutContextPropagation() {
        plain.withClassLoader(new FilteredClassLoader("io.micrometer.context")).run(context -> {
            assertThat(context).doesNotHaveBean(CallbackDecorator.class);
            assertThat(context.getBean(SyncContextRegistry.class).template().decorator()).isNull();
        });
    }

    /** The servlet application with a {@code TaskDecorator} bean of that name, which sets that tenant. */
    private WebApplicationContextRunner withTaskDecorator(String name, String tenant) {
        return servlet.withBean(name, TaskDecorator.class, () -> TaskDecoratorCallbackDecoratorTest.tenant(tenant));
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnCallbackDecorator {
        static final CallbackDecorator INSTANCE = new CallbackDecorator() {
            @Override
            public Runnable decorate(Runnable callback) {
                return callback;
            }

            @Override
            public <T> Callable<T> decorate(Callable<T> callback) {
                return callback;
            }
        };

        @Bean
        CallbackDecorator ownCallbackDecorator() {
            return INSTANCE;
        }
    }
}
