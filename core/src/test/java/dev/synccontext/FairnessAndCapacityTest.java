package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Rules 6 and 7: a drain runs at most maxBatch callbacks; maxQueueDepth rejects clearly. */
class FairnessAndCapacityTest {

    @Test
    void aDrainRunsAtMostMaxBatchCallbacksThenResubmitsItself() {
        ManualExecutor executor = new ManualExecutor();
        RendererSyncContext ctx = RendererSyncContext.builder().executor(executor).maxBatch(4).build();
        List<Integer> ran = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            int n = i;
            ctx.post(() -> ran.add(n));
        }

        assertThat(executor.runNext()).isTrue();
        assertThat(ran).as("first drain").hasSize(4);
        assertThat(executor.pending()).as("drain resubmitted itself").isEqualTo(1);
        assertThat(executor.runNext()).isTrue();
        assertThat(ran).hasSize(8);
        executor.runUntilIdle();
        assertThat(ran).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        assertThat(executor.submitted()).isEqualTo(3);
    }

    @Test
    void aHotContextDoesNotStarveAnotherOnASingleThread() throws Exception {
        ExecutorService single = Executors.newSingleThreadExecutor();
        try {
            RendererSyncContext hot = RendererSyncContext.builder().executor(single).maxBatch(8).build();
            RendererSyncContext other = RendererSyncContext.builder().executor(single).build();
            // The hot context re-posts itself 1,000 times; the other context is posted to once meanwhile.
            assertThat(HotContext.runsBeforeTheOtherTask(hot, other, Duration.ofSeconds(10)))
                    .as("the other context ran after at most a couple of the hot context's batches")
                    .isLessThan(50);
        } finally {
            single.shutdownNow();
        }
    }

    @Test
    void aFullQueueRejectsEveryEntryPointWithAMessageNamingContextAndLimit() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.builder().name("tiny").maxQueueDepth(2).build();
        try (Occupier occupier = Occupier.occupy(ctx)) {
            ctx.post(() -> { });
            CompletableFuture<Void> second = ctx.invokeAsync(() -> { });
            assertThat(ctx.queueDepth()).isEqualTo(2);

            CompletableFuture<Void> rejected = ctx.invokeAsync(() -> { });
            assertThat(rejected).isCompletedExceptionally();
            assertThatThrownBy(rejected::get).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(RejectedExecutionException.class)
                    .hasMessageContaining("'tiny'").hasMessageContaining("maxQueueDepth = 2");
            assertThatThrownBy(() -> ctx.post(() -> { })).isInstanceOf(RejectedExecutionException.class)
                    .hasMessageContaining("'tiny'").hasMessageContaining("2");
            assertThatThrownBy(() -> ctx.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
            assertThatThrownBy(() -> ctx.send(() -> { })).isInstanceOf(RejectedExecutionException.class)
                    .hasMessageContaining("full");
            occupier.release();
            second.get(10, TimeUnit.SECONDS);
        }
        assertThat(ctx.invokeAsync(() -> "accepts again").get(10, TimeUnit.SECONDS)).isEqualTo("accepts again");
    }
}
