package dev.synccontext.test;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;

import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs this module's test suite N times in one JVM with Jupiter's parallel execution on, and stops at the
 * first failing run (printing its failures); the command is in {@code test/README.md}, "Testing the kit".
 */
public final class RepeatSuite {

    private RepeatSuite() {
    }

    public static void main(String[] args) {
        int runs = Integer.parseInt(args[0]);
        Launcher launcher = LauncherFactory.create();
        for (int run = 1; run <= runs; run++) {
            SummaryGeneratingListener listener = new SummaryGeneratingListener();
            launcher.execute(LauncherDiscoveryRequestBuilder.request()
                    .selectors(selectPackage("dev.synccontext.test"))
                    // the fixtures are nested classes run by the tests themselves, as surefire excludes them
                    .filters(org.junit.platform.engine.discovery.ClassNameFilter.excludeClassNamePatterns(".*\\$.*"))
                    .configurationParameter("junit.jupiter.execution.parallel.enabled", "true")
                    .configurationParameter("junit.jupiter.execution.parallel.mode.default", "concurrent")
                    .configurationParameter("junit.jupiter.execution.parallel.mode.classes.default", "concurrent")
                    .build(), listener);
            TestExecutionSummary s = listener.getSummary();
            System.out.printf("run %d: %d tests, %d succeeded, %d failed, %d ms%n", run, s.getTestsFoundCount(),
                    s.getTestsSucceededCount(), s.getTotalFailureCount(), s.getTimeFinished() - s.getTimeStarted());
            if (s.getTotalFailureCount() > 0) {
                s.printFailuresTo(new java.io.PrintWriter(System.out), 30);
                System.exit(1);
            }
        }
    }
}
