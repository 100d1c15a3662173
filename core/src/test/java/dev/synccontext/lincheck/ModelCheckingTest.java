package dev.synccontext.lincheck;

import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.annotations.Validate;
import org.jetbrains.kotlinx.lincheck.paramgen.ThreadIdGen;
import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What every model check here shares: the watchdog parked for the run ({@link WatchdogFreeze}), a {@link Ledger}
 * over the subclass's context, the {@code invokeAsync} operation, the {@code @Validate} that checks the ledger, and
 * one JUnit test that hands the subclass (Lincheck collects {@code @Operation}s up the class hierarchy) to
 * {@link ModelChecker} with this run's budget. Public, so javac adds no visibility bridges that Lincheck would
 * read as a second {@code @Validate}. A subclass states its context, its own operations and its
 * scenario shape.
 *
 * <p>Tagged {@code modelcheck}: a plain {@code mvn verify} runs them in the fast tier at the light budget;
 * test.sh leaves them out of its fast stage and runs them once, at the full budget, in a stage of their own.
 */
@Tag("modelcheck")
public abstract class ModelCheckingTest {

    private static WatchdogFreeze freeze;

    final Ledger ledger = new Ledger(context().blockedThreshold(Duration.ZERO).build());

    /**
     * The context under check. Called once, from the constructor, before the subclass's own fields are set:
     * it may name {@code this} in a method reference but must not read a field.
     */
    abstract RendererSyncContext.Builder context();

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

    /** {@code threads} threads of {@code actorsPerThread} actors each, and {@code around} actors before and after. */
    static ModelCheckingOptions scenario(int threads, int actorsPerThread, int around) {
        return new ModelCheckingOptions()
                .threads(threads)
                .actorsPerThread(actorsPerThread)
                .actorsBefore(around)
                .actorsAfter(around);
    }

    /** Runs what the subclass left pending before the ledger is checked (nothing unless overridden). */
    void settle() {
    }

    @Operation
    public void invokeAsync(@Param(gen = ThreadIdGen.class) int producer) {
        ledger.invokeAsync(producer);
    }

    @Validate
    public void validate() throws InterruptedException {
        settle();
        ledger.validate();
    }

    /** How many times the budget's interleavings per scenario this test tries (1 unless overridden). */
    int invocationWeight() {
        return 1;
    }

    @Test
    final void modelCheck() {
        ModelChecker.check(getClass(), scenario(), invocationWeight());
    }
}
