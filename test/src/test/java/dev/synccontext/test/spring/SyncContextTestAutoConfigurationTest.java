package dev.synccontext.test.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;
import dev.synccontext.spring.session.SessionContexts;
import dev.synccontext.autoconfigure.session.SyncContextSessionAutoConfiguration;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.test.HungCaller;
import dev.synccontext.test.SyncContextTestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import dev.synccontext.autoconfigure.propagation.SyncContextTaskDecoratorAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.core.task.TaskDecorator;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;

/** The starter's registry, contexts, session idle eviction and shutdown timeout, all on the kit. */
class SyncContextTestAutoConfigurationTest {

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SyncContextTestAutoConfiguration.class,
                    SyncContextAutoConfiguration.class, SyncContextSessionAutoConfiguration.class))
            .withPropertyValues("synccontext.session.idle-timeout=30s", "synccontext.shutdown-timeout=10s");

    @Test
    void theRegistryAndEveryContextItBuildsRunOnTheKit() {
        runner.run(app -> {
            SyncContextTestKit kit = app.getBean(SyncContextTestKit.class);
            SyncContextRegistry registry = app.getBean(SyncContextRegistry.class);
            assertThat(registry.clock()).isSameAs(kit.clock());
            RendererSyncContext context = registry.create("session");
            List<String> ran = new ArrayList<>();
            context.post(() -> ran.add("posted"));
            assertThat(ran).as("queued on the kit's executor").isEmpty();
            kit.runUntilIdle();
            assertThat(ran).containsExactly("posted");
            kit.verify();
        });
    }

    @Test
    void aSessionsContextIsEvictedExactlyWhenItsIdleTimeoutHasPassedOnVirtualTime() {
        runner.run(app -> {
            SyncContextTestKit kit = app.getBean(SyncContextTestKit.class);
            SessionContexts sessions = app.getBean(SessionContexts.class);
            RendererSyncContext injected = app.getBean("rendererSyncContext", RendererSyncContext.class);
            assertThat(kit.currentTime()).isZero();
            String contextName = inRequest(injected::name); // the session's first request, at virtual 0 s
            assertThat(sessions.size()).isOne();

            kit.advanceBy(Duration.ofMillis(29_999));
            assertThat(sessions.size()).as("at virtual 29.999 s").isOne();
            kit.advanceBy(Duration.ofMillis(1));
            assertThat(sessions.size()).as("at virtual 30 s").isZero();
            assertThat(sessions.idleEvictions()).isOne();
            assertThat(app.getBean(SyncContextRegistry.class).contexts()).extracting(RendererSyncContext::name)
                    .doesNotContain(contextName);
            kit.verify();
        });
    }

    @Test
    void aReleasedContextWithWorkStuckBehindABlockedCallbackIsForceClosedAtTheVirtualShutdownTimeout() {
        runner.run(app -> {
            SyncContextTestKit kit = app.getBean(SyncContextTestKit.class);
            SyncContextRegistry registry = app.getBean(SyncContextRegistry.class);
            RendererSyncContext context = registry.create("session");
            CountDownLatch release = new CountDownLatch(1);
            Thread caller = HungCaller.start(context, "blocked-caller", release);
            try {
                context.post(() -> { }); // waits behind the blocked callback
                registry.release(context);

                kit.advanceBy(Duration.ofMillis(9_999));
                assertThat(registry.forcedCloses()).as("at virtual 9.999 s").isZero();
                kit.advanceBy(Duration.ofMillis(1));
                assertThat(registry.forcedCloses()).as("at virtual 10 s").isOne();
                assertThat(registry.cancelledPosts()).isOne();
            } finally {
                release.countDown();
                caller.join(10_000);
            }
            kit.verify();
        });
    }

    @Test
    void aCallbackQueuedOnARegistryContextAndLeftBehindIsNamedByTheKit() {
        runner.run(app -> {
            SyncContextTestKit kit = app.getBean(SyncContextTestKit.class);
            app.getBean(SyncContextRegistry.class).create("session").post(() -> { });
            assertThatThrownBy(kit::verify).isInstanceOf(AssertionError.class)
                    .hasMessageContaining("1 callback(s) still queued")
                    .hasMessageContaining("SyncContextTestAutoConfigurationTest.lambda$aCallbackQueuedOnARegistryContext");
            kit.runUntilIdle();
            kit.verify();
        });
    }

    @Test
    void aTestsOwnKitBeanWinsAndAnExploringOneMakesContextsYieldAfterEachCallback() {
        runner.withBean(SyncContextTestKit.class, () -> SyncContextTestKit.exploring(7)).run(app -> {
            SyncContextTestKit kit = app.getBean(SyncContextTestKit.class);
            assertThat(kit.seed()).hasValue(7);
            RendererSyncContext context = app.getBean(SyncContextRegistry.class).create("session");
            context.post(() -> { });
            context.post(() -> { });
            assertThat(kit.executor().pending()).isOne();
            kit.executor().runNext();
            assertThat(kit.executor().pending()).as("the drain yielded after one callback").isOne();
            kit.runUntilIdle();
            kit.verify();
        });
    }

    @Test
    void theRegistrysShutdownWaitsOnVirtualTime() {
        runner.run(app -> {
            SyncContextTestKit kit = app.getBean(SyncContextTestKit.class);
            List<String> ran = new ArrayList<>();
            app.getBean(SyncContextRegistry.class).create("session").post(() -> ran.add("drained at shutdown"));
            app.close();
            assertThat(ran).containsExactly("drained at shutdown");
            assertThat(kit.currentTime()).isZero();
            kit.verify();
        });
    }

    @Test
    void theApplicationsTaskDecoratorStillWrapsQueuedCallbacksUnderTheKit() {
        ThreadLocal<String> user = new ThreadLocal<>();
        TaskDecorator carryUser = task -> {
            String captured = user.get();
            return () -> {
                user.set(captured);
                try {
                    task.run();
                } finally {
                    user.remove();
                }
            };
        };
        runner.withConfiguration(AutoConfigurations.of(SyncContextTaskDecoratorAutoConfiguration.class))
                .withBean(TaskDecorator.class, () -> carryUser).run(app -> {
                    SyncContextTestKit kit = app.getBean(SyncContextTestKit.class);
                    RendererSyncContext context = app.getBean(SyncContextRegistry.class).create("session");
                    List<String> seen = new ArrayList<>();
                    user.set("alice");
                    context.post(() -> seen.add(user.get()));
                    user.remove();
                    assertThatThrownBy(kit::verify).hasMessageContaining("theApplicationsTaskDecoratorStillWraps");
                    kit.runUntilIdle();
                    assertThat(seen).as("the TaskDecorator carried the submitter's value").containsExactly("alice");
                    kit.verify();
                });
    }

    private static <T> T inRequest(java.util.function.Supplier<T> action) {
        MockHttpServletRequest request = new MockHttpServletRequest();
        RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(request));
        try {
            return action.get();
        } finally {
            RequestContextHolder.resetRequestAttributes();
        }
    }
}
