package dev.synccontext.test.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.test.SyncContextTestKit;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

/** The annotation as a user writes it: imported through its {@code .imports} file, verified after each test method. */
@SpringBootTest(classes = AutoConfigureSyncContextTestTest.App.class, webEnvironment = SpringBootTest.WebEnvironment.NONE)
@AutoConfigureSyncContextTest
class AutoConfigureSyncContextTestTest {

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
    }

    @Autowired
    SyncContextTestKit kit;

    @Autowired
    SyncContextRegistry registry;

    @Test
    void theApplicationsRegistryRunsOnTheInjectedKit() {
        assertThat(registry.clock()).isSameAs(kit.clock());
        List<String> ran = new java.util.ArrayList<>();
        registry.forKey("k").post(() -> ran.add("ran"));
        assertThat(ran).isEmpty();
        kit.runUntilIdle();
        assertThat(ran).containsExactly("ran");
    }

    @Test
    void aTestMethodThatLeavesACallbackQueuedFailsNamingTheSubmitSite() {
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create().execute(LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(LeakingSpringTest.class))
                .configurationParameter("junit.jupiter.execution.parallel.enabled", "false").build(), listener);
        List<Throwable> failures = listener.getSummary().getFailures().stream()
                .map(TestExecutionSummary.Failure::getException).toList();
        assertThat(failures).singleElement().satisfies(failure -> assertThat(failure.getMessage())
                .contains("1 callback(s) still queued at the end of the test")
                .contains("AutoConfigureSyncContextTestTest$LeakingSpringTest.leaves(AutoConfigureSyncContextTestTest.java:"
                        + LeakingSpringTest.SUBMIT_LINE + ")"));
    }

    /** A fixture, run only by the nested engine above. */
    @SpringBootTest(classes = App.class, webEnvironment = SpringBootTest.WebEnvironment.NONE,
            properties = "fixture=leaking")
    @AutoConfigureSyncContextTest
    static class LeakingSpringTest {
        static final int SUBMIT_LINE = 72;

        @Autowired
        SyncContextRegistry registry;

        @Test
        void leaves() {
            registry.forKey("cart").post(() -> { }); // SUBMIT_LINE
        }
    }
}
