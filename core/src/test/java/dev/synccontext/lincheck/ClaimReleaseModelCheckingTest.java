package dev.synccontext.lincheck;

import dev.synccontext.RendererSyncContext;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.paramgen.ThreadIdGen;
import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;

/**
 * Lincheck model checking of the idle path alone, where the windows are a few instructions wide:
 * claim (count 0 → 1), the ownership token set and cleared around the callback, the release CAS,
 * and a second caller claiming in between. Small scenarios, many interleavings each. A token that
 * outlives the release (cleared after the CAS) erases the next owner's token: its callback loses
 * {@code checkAccess()}, and its nested {@code send} no longer counts as nested and waits on itself.
 */
public class ClaimReleaseModelCheckingTest extends ModelCheckingTest {

    @Override
    RendererSyncContext.Builder context() {
        return RendererSyncContext.builder().name("lincheck-claim").executor(Runnable::run);
    }

    @Operation
    public void send(@Param(gen = ThreadIdGen.class) int producer) {
        Ledger.Task task = ledger.task(producer);
        ledger.ctx.send(task);
        ledger.outside("send");
    }

    @Operation
    public void nestedSend(@Param(gen = ThreadIdGen.class) int producer) {
        ledger.invokeAsyncNesting(producer, "nestedSend", () -> ledger.ctx.send(ledger.task(-1)));
    }

    @Override
    ModelCheckingOptions scenario() {
        return scenario(2, 2, 0);
    }

    /** The idle path's windows are a few instructions wide: twice the interleavings per scenario. */
    @Override
    int invocationWeight() {
        return 2;
    }
}
