package dev.synccontext.lincheck;

import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What every model check here shares: the watchdog parked for the run ({@link WatchdogFreeze}), and one
 * JUnit test that hands the subclass (its {@code @Operation}s and {@code @Validate}) to
 * {@link ModelChecker} with this run's budget. A subclass states only its scenario shape.
 *
 * <p>Tagged {@code modelcheck}: a plain {@code mvn verify} runs them in the fast tier at the light budget;
 * test.sh leaves them out of its fast stage and runs them once, at the full budget, in a stage of their own.
 */
@Tag("modelcheck")
abstract class ModelCheckingTest {

    private static WatchdogFreeze freeze;

    @BeforeAll
    static void freezeWatchdog() throws InterruptedException {
        freeze = WatchdogFreeze.engage();
    }

    @AfterAll
    static void releaseWatchdog() {
        freeze.close();
    }

    /** Threads and actors of a scenario; iterations and invocations come from the budget. */
    abstract ModelCheckingOptions scenario();

    /** How many times the budget's interleavings per scenario this test tries (1 unless overridden). */
    int invocationWeight() {
        return 1;
    }

    @Test
    final void modelCheck() {
        ModelChecker.check(getClass(), scenario(), invocationWeight());
    }
}
