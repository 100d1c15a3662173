package dev.synccontext.lincheck;

import org.jetbrains.kotlinx.lincheck.LinChecker;
import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.junit.jupiter.api.Assumptions;

/** Runs Lincheck's model checker, reporting a JDK that Lincheck cannot instrument as a skip, not a pass. */
final class ModelChecker {

    private ModelChecker() {
    }

    /**
     * Lincheck 2.39 walks the object graph reachable from the test's statics (our logger reaches the
     * class loaders) with {@code sun.misc.Unsafe.objectFieldOffset}, which refuses record classes;
     * from JDK 21 on, {@code SecureClassLoader$CodeSourceKey} is a record, so Lincheck fails before it
     * runs a single scenario. That is reported as an aborted (skipped) test with Lincheck's message;
     * the randomized stress and race tests still run on that JDK.
     */
    static void check(Class<?> testClass, ModelCheckingOptions options) {
        try {
            LinChecker.check(testClass, options);
        } catch (UnsupportedOperationException e) {
            if (e.getMessage() != null && e.getMessage().contains("can't get field offset on a record class")) {
                Assumptions.abort("Lincheck cannot instrument on Java " + Runtime.version().feature() + ": " + e);
            }
            throw e;
        }
    }
}
