package dev.synccontext.autoconfigure;

import dev.synccontext.spring.SyncContextBuilderCustomizer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.CallbackDecorator;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.registry.SyncContextRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

/** The Boot-style extension points of the root auto-configuration: ordered decorators and builder customizers. */
class ExtensionBeansTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SyncContextAutoConfiguration.class));

    @Test
    void twoCallbackDecoratorsComposeInTheirOrderInsteadOfNeitherApplying() {
        runner.withUserConfiguration(TwoDecorators.class).run(context -> {
            CallbackDecorator decorator = context.getBean(SyncContextRegistry.class).template().decorator();
            assertThat(decorator).as("two decorators must not silently become none").isNotNull();
            List<String> trace = TwoDecorators.TRACE;
            trace.clear();
            decorator.decorate((Runnable) () -> trace.add("callback")).run();
            assertThat(trace).as("each decorates what the one before returned: the last in @Order runs outermost")
                    .containsExactly("second", "first", "callback");
            assertThat(decorator.decorate((Callable<String>) () -> "value").call()).isEqualTo("value");
        });
    }

    @Test
    void twoDecoratorsDecorateTheRegistrysQueuedCallbacks() {
        runner.withUserConfiguration(TwoDecorators.class).run(context -> {
            RendererSyncContext board = context.getBean(SyncContextRegistry.class).forKey("board");
            List<String> trace = TwoDecorators.TRACE;
            trace.clear();
            CompletableFuture<Void> done = new CompletableFuture<>();
            board.post(() -> {
                trace.add("callback");
                done.complete(null);
            });
            done.get(10, TimeUnit.SECONDS);
            assertThat(trace).containsExactly("second", "first", "callback");
        });
    }

    @Test
    void builderCustomizersApplyToEveryContextInTheirOrder() {
        runner.withUserConfiguration(TwoCustomizers.class).run(context -> {
            RendererSyncContext board = context.getBean(SyncContextRegistry.class).forKey("board");
            board.post(() -> {
                throw new IllegalStateException("boom");
            });
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                    .until(() -> !TwoCustomizers.HANDLED.isEmpty());
            assertThat(TwoCustomizers.HANDLED).as("the later customizer's handler wins").containsExactly("later: boom");
            assertThat(context.getBean(SyncContextRegistry.class).statistics("keyed").contexts())
                    .as("the starter's observer is still set after the customizers").isEqualTo(1);
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoDecorators {
        static final List<String> TRACE = new CopyOnWriteArrayList<>();

        @Bean
        @Order(2)
        CallbackDecorator second() {
            return tracing("second");
        }

        @Bean
        @Order(1)
        CallbackDecorator first() {
            return tracing("first");
        }

        static CallbackDecorator tracing(String name) {
            return new CallbackDecorator() {
                @Override
                public Runnable decorate(Runnable callback) {
                    return () -> {
                        TRACE.add(name);
                        callback.run();
                    };
                }

                @Override
                public <T> Callable<T> decorate(Callable<T> callback) {
                    return callback;
                }
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoCustomizers {
        static final List<String> HANDLED = new CopyOnWriteArrayList<>();

        @Bean
        @Order(2)
        SyncContextBuilderCustomizer later() {
            return builder -> builder.unhandledExceptionHandler(
                    (c, failure) -> HANDLED.add("later: " + failure.getMessage()));
        }

        @Bean
        @Order(1)
        SyncContextBuilderCustomizer earlier() {
            return builder -> builder.unhandledExceptionHandler(
                    (c, failure) -> HANDLED.add("earlier: " + failure.getMessage()));
        }
    }
}
