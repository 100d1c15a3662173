package dev.synccontext.lincheck;

import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.annotations.Validate;
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
public class DeferredDrainModelCheckingTest extends ModelCheckingTest {

    private final ConcurrentLinkedQueue<Runnable> drains = new ConcurrentLinkedQueue<>();
    private final Ledger ledger = new Ledger(RendererSyncContext.builder()
            .name("lincheck-deferred")
            .executor(drains::add)
            .maxBatch(1)
            .blockedThreshold(Duration.ZERO)
            .build());

    @Operation
    public void invokeAsync(@Param(gen = ThreadIdGen.class) int producer) {
        ledger.invokeAsync(producer);
    }

    @Operation
    public void post(@Param(gen = ThreadIdGen.class) int producer) {
        ledger.post(producer);
    }

    @Operation
    public void nested(@Param(gen = ThreadIdGen.class) int producer) {
        Ledger.Task outer = ledger.task(producer);
        ledger.future(outer, ledger.ctx.invokeAsync(() -> {
            outer.run();
            Ledger.Task inner = ledger.task(-1);
            ledger.future(inner, ledger.ctx.invokeAsync(inner));
        }));
        ledger.outside("nested");
    }

    @Operation
    public void runDrain() {
        Runnable drain = drains.poll();
        if (drain != null) {
            drain.run();
        }
        ledger.outside("runDrain");
    }

    @Operation
    public void close() {
        ledger.close();
    }

    @Operation
    public void closeNow() {
        ledger.closeNow();
    }

    @Validate
    public void validate() throws InterruptedException {
        for (Runnable drain; (drain = drains.poll()) != null;) {
            drain.run();
        }
        ledger.validate();
    }

    @Override
    ModelCheckingOptions scenario() {
        return new ModelCheckingOptions()
                .threads(3)
                .actorsPerThread(3)
                .actorsBefore(1)
                .actorsAfter(1);
    }
}
