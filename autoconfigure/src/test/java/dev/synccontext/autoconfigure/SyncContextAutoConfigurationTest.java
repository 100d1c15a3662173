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
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.messaging.simp.config.MessageBrokerRegistry;
import org.springframework.web.socket.config.annotation.EnableWebSocketMessageBroker;
import org.springframework.web.socket.config.annotation.StompEndpointRegistry;
import org.springframework.web.socket.config.annotation.WebSocketMessageBrokerConfigurer;

class SyncContextAutoConfigurationTest {

    private static final AutoConfigurations ALL = AutoConfigurations.of(SyncContextAutoConfiguration.class,
            SyncContextMetricsAutoConfiguration.class, SyncContextEndpointAutoConfiguration.class);

    private final ApplicationContextRunner plain = new ApplicationContextRunner().withConfiguration(ALL);
    private final WebApplicationContextRunner servlet = new WebApplicationContextRunner().withConfiguration(ALL);

    // ---------------------------------------------------------------- registry and settings

    @Test
    void nonWebApplicationGetsARegistryWithTheDocumentedDefaultsAndNoScopedBean() {
        plain.run(context -> {
            assertThat(context).hasSingleBean(RendererSyncContextRegistry.class);
            assertThat(context.containsBean("rendererSyncContext")).isFalse();
            ContextTemplate t = context.getBean(RendererSyncContextRegistry.class).template();
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
                    RendererSyncContextRegistry registry = context.getBean(RendererSyncContextRegistry.class);
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
                    assertThat(context).doesNotHaveBean(RendererSyncContextRegistry.class);
                    assertThat(context.containsBean("rendererSyncContext")).isFalse();
                    assertThat(context).doesNotHaveBean(SyncContextEndpoint.class);
                    assertThat(context).doesNotHaveBean(MeterBinder.class);
                });
    }

    @Test
    void completedFuturesAreWrittenDirectlyInServletAppsUnlessSwitchedOff() {
        servlet.run(context -> assertThat(context).hasBean("syncContextCompletedFutureReturnValueHandler"));
        servlet.withPropertyValues("synccontext.mvc.write-completed-futures=false").run(
                context -> assertThat(context).doesNotHaveBean("syncContextCompletedFutureReturnValueHandler"));
        plain.run(context -> assertThat(context).doesNotHaveBean("syncContextCompletedFutureReturnValueHandler"));
    }

    @Test
    void backsOffWithoutTheCore() {
        plain.withClassLoader(new FilteredClassLoader(RendererSyncContext.class))
                .run(context -> assertThat(context).doesNotHaveBean(RendererSyncContextRegistry.class));
    }

    @Test
    void backsOffForAUserRegistry() {
        plain.withUserConfiguration(UserRegistry.class).run(context -> {
            assertThat(context).hasSingleBean(RendererSyncContextRegistry.class);
            assertThat(context.getBean(RendererSyncContextRegistry.class).template().maxBatch()).isEqualTo(7);
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
        servlet.withPropertyValues("synccontext.scope=websocket").run(context -> {
            assertThat(context).hasFailed();
            assertThat(fullMessage(context.getStartupFailure())).contains("synccontext.scope")
                    .contains("@EnableWebSocketMessageBroker");
        });
    }

    // ---------------------------------------------------------------- scopes

    @Test
    void servletApplicationGetsASessionProxyBackedByHandlesNotBySessionScopedBeans() {
        servlet.withUserConfiguration(NeedsContext.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.containsBean("scopedTarget.rendererSyncContext"))
                    .as("no session-scoped context bean: the session holds a handle, the node holds the context")
                    .isFalse();
            assertThat(context).hasSingleBean(SessionContexts.class);
            assertThat(context).hasSingleBean(jakarta.servlet.http.HttpSessionListener.class);
            assertThat(context.getBean(NeedsContext.class).context).isInstanceOf(RendererSyncContext.class);
            assertThat(context.getBean(RendererSyncContextRegistry.class).statistics())
                    .extracting(s -> s.scope()).containsExactly("session");
        });
    }

    @Test
    void scopeRequestMakesTheBeanRequestScoped() {
        servlet.withPropertyValues("synccontext.scope=request").run(context -> assertThat(
                context.getBeanFactory().getBeanDefinition("scopedTarget.rendererSyncContext").getScope())
                .isEqualTo("request"));
    }

    @Test
    void scopeWebsocketWithStompMakesTheBeanWebSocketScoped() {
        servlet.withUserConfiguration(Stomp.class).withPropertyValues("synccontext.scope=websocket").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBeanFactory().getBeanDefinition("scopedTarget.rendererSyncContext").getScope())
                    .isEqualTo("websocket");
        });
    }

    @Test
    void backsOffForAUserRendererSyncContextBean() {
        servlet.withUserConfiguration(UserContext.class).run(context -> {
            assertThat(context.containsBean("scopedTarget.rendererSyncContext")).isFalse();
            assertThat(context).hasSingleBean(RendererSyncContext.class);
        });
    }

    @Test
    void applicationTaskExecutorIsNotSuppressedByTheContextBeanBeingAnExecutor() {
        servlet.withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class))
                .run(context -> assertThat(context).hasBean("applicationTaskExecutor"));
    }

    @Test
    void reactiveApplicationGetsTheArgumentResolverAndNoScopedBean() {
        new ReactiveWebApplicationContextRunner().withConfiguration(ALL).run(context -> {
            assertThat(context).hasSingleBean(WebSessionContexts.class);
            assertThat(context.containsBean("rendererSyncContext")).isFalse();
        });
    }

    // ---------------------------------------------------------------- executor

    @Test
    void applicationTaskExecutorIsUsedWhenAskedFor() {
        plain.withConfiguration(AutoConfigurations.of(TaskExecutionAutoConfiguration.class))
                .withPropertyValues("synccontext.executor=application-task-executor").run(context -> {
                    Executor executor = context.getBean("applicationTaskExecutor", Executor.class);
                    assertThat(context.getBean(RendererSyncContextRegistry.class).template().executor()).isSameAs(executor);
                    assertThat(context.getBeanFactory().getDependentBeans("applicationTaskExecutor"))
                            .contains(SyncContextAutoConfiguration.REGISTRY_BEAN);
                });
    }

    @Test
    void applicationTaskExecutorWithoutSuchABeanFailsNamingTheProperty() {
        plain.withPropertyValues("synccontext.executor=application-task-executor").run(context -> {
            assertThat(context).hasFailed();
            assertThat(fullMessage(context.getStartupFailure())).contains("synccontext.executor")
                    .contains("applicationTaskExecutor");
        });
    }

    @Test
    @EnabledForJreRange(max = JRE.JAVA_20)
    void virtualThreadsBeforeJava21FailStartupWithAClearMessage() {
        plain.withPropertyValues("synccontext.executor=virtual-threads").run(context -> {
            assertThat(context).hasFailed();
            assertThat(fullMessage(context.getStartupFailure())).contains("synccontext.executor")
                    .contains("Java 21");
        });
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void virtualThreadsDrainOnVirtualThreads() {
        plain.withPropertyValues("synccontext.executor=virtual-threads").run(context -> {
            RendererSyncContext ctx = context.getBean(RendererSyncContextRegistry.class).forKey("v");
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
            ContextTemplate t = context.getBean(RendererSyncContextRegistry.class).template();
            assertThat(t.executor()).isSameAs(ForkJoinPool.commonPool());
            assertThat(t.executorName()).isEqualTo("common-pool");
        });
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void bootsVirtualThreadSwitchPicksVirtualThreadsWhenTheExecutorIsNotSet() {
        plain.withPropertyValues("spring.threads.virtual.enabled=true").run(context -> {
            ContextTemplate t = context.getBean(RendererSyncContextRegistry.class).template();
            assertThat(t.executor()).isInstanceOf(org.springframework.core.task.VirtualThreadTaskExecutor.class);
            assertThat(t.executorName()).isEqualTo("virtual-threads");
        });
    }

    @Test
    void anExplicitExecutorWinsOverBootsVirtualThreadSwitch() {
        plain.withPropertyValues("spring.threads.virtual.enabled=true", "synccontext.executor=common-pool")
                .run(context -> assertThat(context.getBean(RendererSyncContextRegistry.class).template()
                        .executorName()).isEqualTo("common-pool"));
    }

    @Test
    @EnabledForJreRange(max = JRE.JAVA_20)
    void bootsVirtualThreadSwitchIsIgnoredBeforeJava21AsBootItselfDoes() {
        plain.withPropertyValues("spring.threads.virtual.enabled=true").run(context -> assertThat(
                context.getBean(RendererSyncContextRegistry.class).template().executorName()).isEqualTo("elastic"));
    }

    // ---------------------------------------------------------------- context propagation

    @Test
    void contextPropagationDecoratesQueuedCallbacksWhenPresent() {
        plain.run(context -> {
            assertThat(context).hasSingleBean(CallbackDecorator.class);
            assertThat(context.getBean(RendererSyncContextRegistry.class).template().decorator())
                    .isSameAs(context.getBean(CallbackDecorator.class));
        });
    }

    @Test
    void noDecoratorWithoutContextPropagation() {
        plain.withClassLoader(new FilteredClassLoader("io.micrometer.context")).run(context -> {
            assertThat(context).doesNotHaveBean(CallbackDecorator.class);
            assertThat(context.getBean(RendererSyncContextRegistry.class).template().decorator()).isNull();
        });
    }

    // ---------------------------------------------------------------- metrics

    @Test
    void metricsBinderExportsTheConfiguredScopeFromStartup() {
        servlet.run(context -> {
            MeterRegistry meters = new SimpleMeterRegistry();
            context.getBean(MeterBinder.class).bindTo(meters);
            assertThat(meters.get("synccontext.contexts").tag("scope", "session").gauge().value()).isZero();
            context.getBean(RendererSyncContextRegistry.class).forKey("later");
            assertThat(meters.get("synccontext.contexts").tag("scope", "keyed").gauge().value())
                    .as("a scope first used after binding gets its meters too").isEqualTo(1);
        });
    }

    @Test
    void metricsEnabledFalseRemovesTheBinderButKeepsTheRegistry() {
        plain.withPropertyValues("synccontext.metrics.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(MeterBinder.class);
            assertThat(context).hasSingleBean(RendererSyncContextRegistry.class);
        });
    }

    @Test
    void noMetricsWithoutMicrometer() {
        plain.withClassLoader(new FilteredClassLoader(MeterRegistry.class)).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).hasSingleBean(RendererSyncContextRegistry.class);
            assertThat(context.containsBean("syncContextMeterBinder")).isFalse();
        });
    }

    // ---------------------------------------------------------------- endpoint

    @Test
    void endpointIsAbsentUnlessExposed() {
        servlet.run(context -> assertThat(context).doesNotHaveBean(SyncContextEndpoint.class));
    }

    @Test
    void endpointIsPresentWhenExposedAndShowsTheSettings() {
        servlet.withPropertyValues("management.endpoints.web.exposure.include=synccontext",
                "synccontext.max-batch=9").run(context -> {
                    SyncContextEndpoint.Overview overview = context.getBean(SyncContextEndpoint.class).overview();
                    assertThat(overview.settings()).containsEntry("maxBatch", 9).containsEntry("scope", "session");
                    assertThat(overview.scenarios().names()).contains("InvokeAsyncReady", "PostConcurrent");
                    assertThat(overview.tasks()).containsKeys("inline", "queued", "nested", "send");
                });
    }

    @Test
    void endpointListsACallbackThatRunsPastTheBlockedThresholdWithItsThreadAndFrames() {
        servlet.withPropertyValues("management.endpoints.web.exposure.include=synccontext",
                "synccontext.blocked-threshold=50ms").run(context -> {
                    SyncContextEndpoint endpoint = context.getBean(SyncContextEndpoint.class);
                    RendererSyncContext slow = context.getBean(RendererSyncContextRegistry.class).forKey("slow-board");
                    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
                    Thread caller = new Thread(() -> slow.invokeAsync(() -> {
                        try {
                            release.await(30, java.util.concurrent.TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }), "slow-caller");
                    caller.start();
                    try {
                        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                                .until(() -> endpoint.overview().blocked().stream().anyMatch(b -> b.context().equals("slow-board")));
                        SyncContextEndpoint.Blocked blocked = endpoint.overview().blocked().stream()
                                .filter(b -> b.context().equals("slow-board")).findFirst().orElseThrow();
                        assertThat(blocked.context()).isEqualTo("slow-board");
                        assertThat(blocked.thread()).isEqualTo("slow-caller");
                        assertThat(blocked.runningForMillis()).isGreaterThanOrEqualTo(50);
                        assertThat(blocked.topFrames()).isNotEmpty().hasSizeLessThanOrEqualTo(SyncContextEndpoint.TOP_FRAMES);
                        assertThat(String.join("\n", blocked.topFrames())).contains("await");
                    } finally {
                        release.countDown();
                        caller.join(10_000);
                    }
                    org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(10))
                            .until(() -> endpoint.overview().blocked().stream().noneMatch(b -> b.context().equals("slow-board")));
                    assertThat(endpoint.overview().scopes().get("keyed").blockedTotal()).isEqualTo(1);
                });
    }

    @Test
    void endpointBacksOffWithoutActuator() {
        servlet.withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate"))
                .withPropertyValues("management.endpoints.web.exposure.include=synccontext")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(SyncContextEndpoint.class);
                });
    }

    // ---------------------------------------------------------------- fixtures

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
        RendererSyncContextRegistry myRegistry() {
            return new RendererSyncContextRegistry(new ContextTemplate(ForkJoinPool.commonPool(), "mine", 7, 0,
                    Duration.ofSeconds(1), Duration.ofSeconds(1), null));
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UserContext {
        @Bean
        RendererSyncContext myContext() {
            return RendererSyncContext.create();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class NeedsContext {
        final RendererSyncContext context;

        NeedsContext(RendererSyncContext context) {
            this.context = context;
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableWebSocketMessageBroker
    static class Stomp implements WebSocketMessageBrokerConfigurer {
        @Override
        public void registerStompEndpoints(StompEndpointRegistry registry) {
            registry.addEndpoint("/ws");
        }

        @Override
        public void configureMessageBroker(MessageBrokerRegistry registry) {
            registry.enableSimpleBroker("/topic");
        }
    }
}
