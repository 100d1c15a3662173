package dev.synccontext.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.CallbackDecorator;
import dev.synccontext.RendererSyncContext;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.task.TaskExecutionAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.ApplicationContextAssertProvider;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.messaging.simp.config.MessageBrokerRegistry;
import org.springframework.web.socket.config.annotation.EnableWebSocketMessageBroker;
import org.springframework.web.socket.config.annotation.StompEndpointRegistry;
import org.springframework.web.socket.config.annotation.WebSocketMessageBrokerConfigurer;
import dev.synccontext.autoconfigure.endpoint.SyncContextEndpoint;
import dev.synccontext.autoconfigure.endpoint.SyncContextEndpointAutoConfiguration;
import dev.synccontext.autoconfigure.metrics.SyncContextMetricsAutoConfiguration;
import dev.synccontext.spring.session.SessionContexts;
import dev.synccontext.spring.session.WebSessionContexts;
import dev.synccontext.registry.ContextTemplate;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.autoconfigure.mvc.SyncContextMvcAutoConfiguration;
import dev.synccontext.autoconfigure.propagation.SyncContextPropagationAutoConfiguration;
import dev.synccontext.autoconfigure.session.SyncContextSessionAutoConfiguration;
import dev.synccontext.autoconfigure.webflux.SyncContextWebFluxAutoConfiguration;

/** Conditions of the root auto-configuration: the registry, its settings and executor, invalid values. */
class SyncContextAutoConfigurationTest {

    private final ApplicationContextRunner plain = AllParts.plain();
    private final WebApplicationContextRunner servlet = AllParts.servlet();

    // ---------------------------------------------------------------- registry and settings

    @Test
    void nonWebApplicationGetsARegistryWithTheDocumentedDefaultsAndNoScopedBean() {
        plain.run(context -> {
            assertThat(context).hasSingleBean(SyncContextRegistry.class);
            assertThat(context.containsBean("rendererSyncContext")).isFalse();
            ContextTemplate t = context.getBean(SyncContextRegistry.class).template();
            assertThat(t.executor()).isSameAs(RendererSyncContext.defaultExecutor());
            assertThat(t.executorName()).isEqualTo("elastic");
            assertThat(t.maxBatch()).isEqualTo(64);
            assertThat(t.maxQueueDepth()).isZero();
            assertThat(t.blockedThreshold()).isEqualTo(Duration.ofSeconds(2));
            assertThat(t.shutdownTimeout()).isEqualTo(Duration.ofSeconds(30));
            assertThat(t.samplingInterval()).isEqualTo(256);
        });
    }

    @Test
    void everySettingPropertyReachesTheContexts() {
        plain.withPropertyValues("synccontext.max-batch=8", "synccontext.max-queue-depth=100",
                "synccontext.blocked-threshold=500ms", "synccontext.shutdown-timeout=3s",
                "synccontext.metrics.sampling-interval=16").run(context -> {
                    SyncContextRegistry registry = context.getBean(SyncContextRegistry.class);
                    ContextTemplate t = registry.template();
                    assertThat(t.maxBatch()).isEqualTo(8);
                    assertThat(t.maxQueueDepth()).isEqualTo(100);
                    assertThat(t.blockedThreshold()).isEqualTo(Duration.ofMillis(500));
                    assertThat(t.shutdownTimeout()).isEqualTo(Duration.ofSeconds(3));
                    assertThat(t.samplingInterval()).isEqualTo(16);
                    assertThat(registry.statistics("session").samplingInterval()).isEqualTo(16);
                    RendererSyncContext ctx = registry.forKey("k");
                    ctx.post(() -> { });
                    assertThat(ctx.name()).isEqualTo("k");
                });
    }

    @Test
    void enabledFalseTurnsEverythingOff() {
        servlet.withPropertyValues("synccontext.enabled=false",
                "management.endpoints.web.exposure.include=synccontext").run(context -> {
                    assertThat(context).doesNotHaveBean(SyncContextRegistry.class);
                    assertThat(context.containsBean("rendererSyncContext")).isFalse();
                    assertThat(context).doesNotHaveBean(SyncContextEndpoint.class);
                    assertThat(context).doesNotHaveBean(MeterBinder.class);
                });
    }

    @Test
    void backsOffWithoutTheCore() {
        plain.withClassLoader(new FilteredClassLoader(RendererSyncContext.class))
                .run(context -> assertThat(context).doesNotHaveBean(SyncContextRegistry.class));
    }

    @Test
    void backsOffForAUserRegistry() {
        plain.withUserConfiguration(UserRegistry.class).run(context -> {
            assertThat(context).hasSingleBean(SyncContextRegistry.class);
            assertThat(context.getBean(SyncContextRegistry.class).template().maxBatch()).isEqualTo(7);
        });
    }

    // ---------------------------------------------------------------- invalid values

    @Test
    void invalidValuesFailStartupNamingTheProperty() {
        String[][] cases = {
                { "synccontext.max-batch=0", "synccontext.max-batch" },
                { "synccontext.max-queue-depth=-1", "synccontext.max-queue-depth" },
                { "synccontext.blocked-threshold=-1s", "synccontext.blocked-threshold" },
                { "synccontext.shutdown-timeout=-5s", "synccontext.shutdown-timeout" },
                { "synccontext.benchmark.max-iterations=0", "synccontext.benchmark.max-iterations" },
                { "synccontext.benchmark.max-duration=0s", "synccontext.benchmark.max-duration" },
                { "synccontext.scope=galaxy", "synccontext.scope" },
                { "synccontext.executor=turbo", "synccontext.executor" },
                { "synccontext.max-batch=lots", "synccontext.max-batch" },
                { "synccontext.metrics.sampling-interval=100", "synccontext.metrics.sampling-interval" },
        };
        for (String[] c : cases) {
            servlet.withPropertyValues(c[0]).run(context -> assertThat(context).hasFailed()
                    .getFailure().as(c[0]).satisfies(failure -> assertThat(fullMessage(failure)).contains(c[1])));
        }
    }

    @Test
    void websocketScopeWithoutStompMessagingFailsStartupNamingTheProperty() {
        servlet.withPropertyValues("synccontext.scope=websocket")
                .run(context -> assertFailedNaming(context, "synccontext.scope", "@EnableWebSocketMessageBroker"));
    }

    // ---------------------------------------------------------------- scopes

    @Test
    void applicationTaskExecutorIsNotSuppressedByTheContextBeanBeingAnExecutor() {
        servlet.withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class))
                .run(context -> assertThat(context).hasBean("applicationTaskExecutor"));
    }

    // ---------------------------------------------------------------- executor

    @Test
    void applicationTaskExecutorIsUsedWhenAskedFor() {
        plain.withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class))
                .withPropertyValues("synccontext.executor=application-task-executor").run(context -> {
                    Executor executor = context.getBean("applicationTaskExecutor", Executor.class);
                    assertThat(context.getBean(SyncContextRegistry.class).template().executor()).isSameAs(executor);
                    assertThat(context.getBeanFactory().getDependentBeans("applicationTaskExecutor"))
                            .contains(SyncContextAutoConfiguration.REGISTRY_BEAN);
                });
    }

    @Test
    void applicationTaskExecutorWithoutSuchABeanFailsNamingTheProperty() {
        plain.withPropertyValues("synccontext.executor=application-task-executor")
                .run(context -> assertFailedNaming(context, "synccontext.executor", "applicationTaskExecutor"));
    }

    @Test
    @EnabledForJreRange(max = JRE.JAVA_20)
    void virtualThreadsBeforeJava21FailStartupWithAClearMessage() {
        plain.withPropertyValues("synccontext.executor=virtual-threads")
                .run(context -> assertFailedNaming(context, "synccontext.executor", "Java 21"));
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void virtualThreadsDrainOnVirtualThreads() {
        plain.withPropertyValues("synccontext.executor=virtual-threads").run(context -> {
            RendererSyncContext ctx = context.getBean(SyncContextRegistry.class).forKey("v");
            java.util.concurrent.CompletableFuture<Boolean> virtual = new java.util.concurrent.CompletableFuture<>();
            ctx.post(() -> {
                try {
                    virtual.complete((Boolean) Thread.class.getMethod("isVirtual").invoke(Thread.currentThread()));
                } catch (ReflectiveOperationException e) {
                    virtual.completeExceptionally(e);
                }
            });
            assertThat(virtual.get(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        });
    }

    @Test
    void virtualThreadsAreRefusedOnJava17EvenWhenAskedDirectly() {
        assertThat(org.assertj.core.api.Assertions.catchThrowable(
                () -> SyncContextExecutors.virtualThreads(17))).hasMessageContaining("Java 21");
    }

    @Test
    void commonPoolStaysSelectable() {
        plain.withPropertyValues("synccontext.executor=common-pool").run(context -> {
            ContextTemplate t = context.getBean(SyncContextRegistry.class).template();
            assertThat(t.executor()).isSameAs(ForkJoinPool.commonPool());
            assertThat(t.executorName()).isEqualTo("common-pool");
        });
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void bootsVirtualThreadSwitchPicksVirtualThreadsWhenTheExecutorIsNotSet() {
        plain.withPropertyValues("spring.threads.virtual.enabled=true").run(context -> {
            ContextTemplate t = context.getBean(SyncContextRegistry.class).template();
            assertThat(t.executor()).isInstanceOf(org.springframework.core.task.VirtualThreadTaskExecutor.class);
            assertThat(t.executorName()).isEqualTo("virtual-threads");
        });
    }

    @Test
    void anExplicitExecutorWinsOverBootsVirtualThreadSwitch() {
        plain.withPropertyValues("spring.threads.virtual.enabled=true", "synccontext.executor=common-pool")
                .run(context -> assertThat(context.getBean(SyncContextRegistry.class).template()
                        .executorName()).isEqualTo("common-pool"));
    }

    @Test
    @EnabledForJreRange(max = JRE.JAVA_20)
    void bootsVirtualThreadSwitchIsIgnoredBeforeJava21AsBootItselfDoes() {
        plain.withPropertyValues("spring.threads.virtual.enabled=true").run(context -> assertThat(
                context.getBean(SyncContextRegistry.class).template().executorName()).isEqualTo("elastic"));
    }




    // ---------------------------------------------------------------- fixtures

    /** The startup failed, and its message (its causes' included) names each of {@code mentions}. */
    private static void assertFailedNaming(ApplicationContextAssertProvider<?> context, String... mentions) {
        assertThat(context).hasFailed();
        String message = fullMessage(context.getStartupFailure());
        for (String mention : mentions) {
            assertThat(message).contains(mention);
        }
    }

    static String fullMessage(Throwable failure) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            all.append(t).append('\n');
        }
        return all.toString();
    }

    @Configuration(proxyBeanMethods = false)
    static class UserRegistry {
        @Bean
        SyncContextRegistry myRegistry() {
            return new SyncContextRegistry(new ContextTemplate(ForkJoinPool.commonPool(), "mine", 7, 0,
                    Duration.ofSeconds(1), Duration.ofSeconds(1), null));
        }
    }


}
