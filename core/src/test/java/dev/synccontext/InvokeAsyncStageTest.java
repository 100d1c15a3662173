package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.testing.PooledTest;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Rule 3: the context is held only for the synchronous part; the future mirrors the stage, no hop. */
class InvokeAsyncStageTest extends PooledTest {

    @Test
    void theContextIsReleasedWhenTheSynchronousPartReturns() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        CompletableFuture<String> gate = new CompletableFuture<>();
        List<String> order = new CopyOnWriteArrayList<>();

        CompletableFuture<String> result = ctx.invokeAsyncStage(() -> {
            order.add("sync part");
            return gate;
        });
        ctx.invokeAsync(() -> order.add("next callback")).get(10, TimeUnit.SECONDS);

        assertThat(result).isNotDone();
        assertThat(order).containsExactly("sync part", "next callback");
        gate.complete("done");
        assertThat(result.get(10, TimeUnit.SECONDS)).isEqualTo("done");
    }

    @Test
    void theFutureMirrorsTheStagesValueExceptionAndCancellation() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        try (Occupier occupier = Occupier.occupy(ctx)) {
            // Queued (busy) path: the returned future is the queue node and must mirror the stage.
            CompletableFuture<String> valueGate = new CompletableFuture<>();
            CompletableFuture<String> failGate = new CompletableFuture<>();
            CompletableFuture<String> cancelGate = new CompletableFuture<>();
            CompletableFuture<String> value = ctx.invokeAsyncStage(() -> valueGate);
            CompletableFuture<String> failed = ctx.invokeAsyncStage(() -> failGate);
            CompletableFuture<String> cancelled = ctx.invokeAsyncStage(() -> cancelGate);
            occupier.release();
            occupier.finished.get(10, TimeUnit.SECONDS);
            ctx.invokeAsync(() -> { }).get(10, TimeUnit.SECONDS); // the three sync parts have run

            valueGate.complete("v");
            failGate.completeExceptionally(new IllegalStateException("stage failed"));
            cancelGate.cancel(false);

            assertThat(value.get(10, TimeUnit.SECONDS)).isEqualTo("v");
            assertThatThrownBy(failed::get).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(IllegalStateException.class).hasRootCauseMessage("stage failed");
            assertThat(cancelled.isCancelled()).as("cancelled stage → cancelled future").isTrue();
        }
    }

    @Test
    void theFutureCompletesOnTheThreadThatCompletesTheStage() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        CompletableFuture<String> gate = new CompletableFuture<>();
        AtomicReference<Thread> dependentRanOn = new AtomicReference<>();
        CompletableFuture<String> result;
        try (Occupier occupier = Occupier.occupy(ctx)) {
            result = ctx.invokeAsyncStage(() -> gate);
        }
        ctx.invokeAsync(() -> { }).get(10, TimeUnit.SECONDS);
        CompletableFuture<Void> dependent = result.thenRun(() -> dependentRanOn.set(Thread.currentThread()));

        Thread completer = new Thread(() -> gate.complete("x"), "completer");
        completer.start();
        completer.join();

        dependent.get(10, TimeUnit.SECONDS);
        assertThat(dependentRanOn.get()).as("no hop through the queue").isSameAs(completer);
    }

    @Test
    void inlineStageReturnsTheCallbacksOwnCompletableFuture() {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        CompletableFuture<String> gate = new CompletableFuture<>();

        CompletableFuture<String> result = ctx.invokeAsyncStage(() -> gate);

        assertThat(result).as("no copy on the inline path").isSameAs(gate);
    }

    @Test
    void aFailureOfTheSynchronousPartGoesIntoTheFuture() {
        RendererSyncContext ctx = RendererSyncContext.create(pool);

        CompletableFuture<String> result = ctx.invokeAsyncStage(() -> {
            throw new IllegalArgumentException("sync part failed");
        });

        assertThatThrownBy(result::join).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aNullStageFailsTheFutureWithAClearMessage() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        CompletableFuture<String> inline = ctx.invokeAsyncStage(() -> null);
        CompletableFuture<String> queued;
        try (Occupier occupier = Occupier.occupy(ctx)) {
            queued = ctx.invokeAsyncStage(() -> null);
        }
        for (CompletableFuture<String> f : List.of(inline, queued)) {
            assertThatThrownBy(() -> f.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(NullPointerException.class)
                    .hasMessageContaining("returned null");
        }
    }

    @Test
    void aNonCompletableFutureStageIsMirroredToo() {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        CompletableFuture<String> gate = new CompletableFuture<>();

        CompletableFuture<String> result = ctx.invokeAsyncStage(gate::minimalCompletionStage);
        gate.complete("minimal");

        assertThat(result.join()).isEqualTo("minimal");
    }
}
