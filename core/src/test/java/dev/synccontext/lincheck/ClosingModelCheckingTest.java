package dev.synccontext.lincheck;

import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.paramgen.ThreadIdGen;

/**
 * A model check that also posts and closes: {@code post}, {@code close} and {@code closeNow} race with
 * {@code invokeAsync} and whatever the subclass adds.
 */
public abstract class ClosingModelCheckingTest extends ModelCheckingTest {

    @Operation
    public void post(@Param(gen = ThreadIdGen.class) int producer) {
        ledger.post(producer);
    }

    @Operation
    public void close() {
        ledger.close();
    }

    @Operation
    public void closeNow() {
        ledger.closeNow();
    }
}
