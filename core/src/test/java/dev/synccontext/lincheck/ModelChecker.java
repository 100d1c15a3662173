package dev.synccontext.lincheck;

import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs Lincheck's model checker with the run's budget, reporting a JDK that Lincheck cannot instrument
 * as a skip, not a pass.
 *
 * <p>The budget is how much exploration a run buys, never what is explored: every test keeps its
 * operations, thread count and scenario shape; only the number of random scenarios (iterations) and of
 * interleavings tried per scenario (invocations) change. {@code -Dsynccontext.modelcheck=full} (test.sh
 * passes it, core's POM forwards the Maven property to the tests) selects {@link Budget#FULL}; anything
 * else, the inner loop's {@code mvn verify -pl core} included, runs {@link Budget#LIGHT}.
 * {@code -Dlincheck.iterations=…} and {@code -Dlincheck.invocations=…} override either for a long run
 * by hand.
 */
final class ModelChecker {

    /** The system property that selects the budget: {@code full} or {@code light} (the default). */
    static final String BUDGET_PROPERTY = "synccontext.modelcheck";

    /** How many scenarios a model check explores, and how many interleavings of each. */
    enum Budget {
        /** The inner loop: two scenarios a test, a few seconds each; catches a protocol that is plainly broken. */
        LIGHT(2, 100),
        /** The full build (test.sh, CI): the size docs/RELIABILITY.md reports as "per build". */
        FULL(10, 200);

        final int iterations;
        final int invocations;

        Budget(int iterations, int invocations) {
            this.iterations = iterations;
            this.invocations = invocations;
        }

        static Budget ofThisRun() {
            return "full".equalsIgnoreCase(System.getProperty(BUDGET_PROPERTY, "light").trim()) ? FULL : LIGHT;
        }
    }

    private ModelChecker() {
    }

    /**
     * Checks {@code testClass} over the scenario shape in {@code scenario} (threads, actors) with this
     * run's budget; {@code invocationWeight} multiplies the interleavings per scenario for a test whose
     * scenarios are small and whose windows are narrow.
     */
    static void check(Class<?> testClass, ModelCheckingOptions scenario, int invocationWeight) {
        Budget budget = Budget.ofThisRun();
        int iterations = Integer.getInteger("lincheck.iterations", budget.iterations);
        int invocations = invocationWeight * Integer.getInteger("lincheck.invocations", budget.invocations);
        System.out.println("[model-check] " + testClass.getSimpleName() + ": " + budget + " budget, "
                + iterations + " scenarios x " + invocations + " interleavings");
        check(testClass, scenario.iterations(iterations).invocationsPerIteration(invocations));
    }

    /**
     * Lincheck 2.39 walks the object graph reachable from the test's statics (our logger reaches the
     * class loaders) with {@code sun.misc.Unsafe.objectFieldOffset}, which refuses record classes. On
     * JDKs where {@code SecureClassLoader$CodeSourceKey} is a record (Java 25 here, not 17) it fails
     * before it runs a single scenario with {@code UnsupportedOperationException: can't get field
     * offset on a record class: private final java.security.CodeSource
     * java.security.SecureClassLoader$CodeSourceKey.cs}. The check is made up front because, once
     * Lincheck's agent is attached, even a catch block that touches the exception fails the same way.
     * Such a run is reported as skipped; {@code TransitionRaceTest} and the stress tests still run.
     */
    private static void check(Class<?> testClass, ModelCheckingOptions options) {
        Assumptions.assumeFalse(codeSourceKeyIsRecord(), "Lincheck 2.39 cannot instrument Java "
                + Runtime.version().feature() + ": SecureClassLoader$CodeSourceKey is a record there");
        LinChecker.check(testClass, options);
    }

    private static boolean codeSourceKeyIsRecord() {
        try {
            return Class.forName("java.security.SecureClassLoader$CodeSourceKey").isRecord();
        } catch (ClassNotFoundException absent) {
            return false;
        }
    }
}
