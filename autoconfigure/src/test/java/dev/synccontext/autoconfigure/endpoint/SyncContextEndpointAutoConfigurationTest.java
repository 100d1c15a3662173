package dev.synccontext.autoconfigure.endpoint;

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
import dev.synccontext.autoconfigure.AllParts;
import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;

/** Conditions of the endpoint part, and what the endpoint shows. */
class SyncContextEndpointAutoConfigurationTest {

    private final ApplicationContextRunner plain = AllParts.plain();
    private final WebApplicationContextRunner servlet = AllParts.servlet();

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
                    RendererSyncContext slow = context.getBean(SyncContextRegistry.class).forKey("slow-board");
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
                        assertThat(blocked.scope()).isEqualTo("keyed");
                        assertThat(blocked.callbackSite()).contains("SyncContextEndpointAutoConfigurationTest.lambda$");
                        assertThat(blocked.virtualThread()).isFalse();
                        assertThat(blocked.queuedForMillis()).as("ran inline: never queued").isZero();
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
}
