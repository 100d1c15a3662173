package dev.synccontext.lincheck;

import dev.synccontext.RendererSyncContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import org.jetbrains.kotlinx.lincheck.strategy.managed.modelchecking.ModelCheckingOptions;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.paramgen.ThreadIdGen;

/**
 * Lincheck model checking of the state machine with drains that run on the thread that schedules
 * them: claim/release, enqueue from several producers, nested calls, {@code send} waiting for and
 * receiving the hand-off, {@code close}/{@code closeNow} racing with all of it. Lincheck explores
 * thread interleavings of random scenarios; after each, {@link Ledger#validate()} checks that every
 * task ran exactly once or was reported, every future completed, FIFO per producer, no overlap.
 */
public class ContextModelCheckingTest extends ClosingModelCheckingTest {

    @Override
    RendererSyncContext.Builder context() {
        return RendererSyncContext.builder().name("lincheck").executor(Runnable::run).maxBatch(2);
    }

    @Operation
    public void invokeAsyncStage(@Param(gen = ThreadIdGen.class) int producer) {
        Ledger.Task task = ledger.task(producer);
        ledger.future(task, ledger.ctx.invokeAsyncStage(() -> {
            task.run();
            return CompletableFuture.completedFuture(task.id);
        }));
        ledger.outside("invokeAsyncStage");
    }

    @Operation
    public void send(@Param(gen = ThreadIdGen.class) int producer) {
        Ledger.Task task = ledger.task(producer);
        try {
            ledger.ctx.send(task);
        } catch (RejectedExecutionException closedOrAborted) {
            ledger.reported(task);
        }
        ledger.outside("send");
    }

    /** A callback that calls the context again: invokeAsync and send run nested, post queues. */
    @Operation
    public void nested(@Param(gen = ThreadIdGen.class) int producer) {
        ledger.invokeAsyncNesting(producer, "nested", () -> {
            Ledger.Task inner = ledger.task(-1);
            Ledger.Task innerSend = ledger.task(-1);
            CompletableFuture<Void> f = ledger.ctx.invokeAsync(inner);
            if (!f.isDone()) {
                ledger.violation("nested invokeAsync did not run at once: " + f);
            }
            ledger.future(inner, f);
            ledger.ctx.send(innerSend);
        });
    }

    @Override
    ModelCheckingOptions scenario() {
        return scenario(3, 3, 1);
    }
}
