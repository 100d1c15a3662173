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
     * class loaders) with {@code sun.misc.Unsafe.objectFieldOffset}, which refuses record classes. On
     * JDKs where {@code SecureClassLoader$CodeSourceKey} is a record (Java 25 here, not 17) it fails
     * before it runs a single scenario with {@code UnsupportedOperationException: can't get field
     * offset on a record class: private final java.security.CodeSource
     * java.security.SecureClassLoader$CodeSourceKey.cs}. The check is made up front because, once
     * Lincheck's agent is attached, even a catch block that touches the exception fails the same way.
     * Such a run is reported as skipped; {@code TransitionRaceTest} and the stress tests still run.
     */
    static void check(Class<?> testClass, ModelCheckingOptions options) {
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
