package dev.synccontext.lincheck;

import dev.synccontext.RendererSyncContext;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.paramgen.ThreadIdGen;
import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;

/**
 * Lincheck model checking with an executor that only queues drains: a drain runs when some thread
 * performs {@link #runDrain()}, so a scheduled drain can start late, race with producers that
 * reserve and link nodes, with the owner's release CAS, and with {@code closeNow()} taking a
 * scheduled-but-unstarted drain's queue over. {@code send} is left out here because a sender
 * blocks until a drain that this model may never run. Whatever drains are left run in
 * {@link #validate()}, which then checks the ledger.
 */
public class DeferredDrainModelCheckingTest extends ClosingModelCheckingTest {

    private final ConcurrentLinkedQueue<Runnable> drains = new ConcurrentLinkedQueue<>();

    // this::schedule, not drains::add: drains is not set yet when context() runs.
    @Override
    RendererSyncContext.Builder context() {
        return RendererSyncContext.builder().name("lincheck-deferred").executor(this::schedule).maxBatch(1);
    }

    private void schedule(Runnable drain) {
        drains.add(drain);
    }

    @Operation
    public void nested(@Param(gen = ThreadIdGen.class) int producer) {
        ledger.invokeAsyncNesting(producer, "nested", () -> {
            Ledger.Task inner = ledger.task(-1);
            ledger.future(inner, ledger.ctx.invokeAsync(inner));
        });
    }

    @Operation
    public void runDrain() {
        Runnable drain = drains.poll();
        if (drain != null) {
            drain.run();
        }
        ledger.outside("runDrain");
    }

    /** The drains no thread ran. */
    @Override
    void settle() {
        for (Runnable drain; (drain = drains.poll()) != null;) {
            drain.run();
        }
    }

    @Override
    ModelCheckingOptions scenario() {
        return scenario(3, 3, 1);
    }
}
