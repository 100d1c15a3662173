package dev.synccontext.test;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.List;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/** Runs a fixture test class in a nested JUnit engine, as a user's build would, and hands back what failed. */
final class NestedRun {

    private NestedRun() {
    }

    static TestExecutionSummary run(Class<?> fixture) {
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(selectClass(fixture))
                // The fixtures are this module's test classes too; run them alone, not in parallel.
                .configurationParameter("junit.jupiter.execution.parallel.enabled", "false")
                .build(), listener);
        return listener.getSummary();
    }

    static List<Throwable> failures(Class<?> fixture) {
        return run(fixture).getFailures().stream().map(TestExecutionSummary.Failure::getException).toList();
    }
}
