package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

/** Rule 8, second half: a refused drain loses nothing. */
class ExecutorRefusalTest {

    @Test
    void whenTheExecutorRefusesTheDrainFuturesFailWithTheCauseAndPostsReachTheHandler() throws Exception {
        ManualExecutor executor = new ManualExecutor();
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        RendererSyncContext ctx = RendererSyncContext.builder().name("refused").executor(executor)
                .unhandledExceptionHandler((c, t) -> handled.add(t)).build();
        executor.reject(true);
        CompletableFuture<Void> queued;
        try (Occupier occupier = Occupier.occupy(ctx)) {
            queued = ctx.invokeAsync(() -> { });
            ctx.post(() -> { });
        }
        // The occupier's release tried to schedule a drain; the executor refused.
        assertThatThrownBy(queued::join).hasCauseInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining("'refused'").hasRootCauseMessage("ManualExecutor is rejecting");
        assertThat(handled).singleElement().isInstanceOf(RejectedExecutionException.class);
        assertThat(ctx.queueDepth()).isZero();

        executor.reject(false);
        assertThat(ctx.invokeAsync(() -> "serving again").join()).isEqualTo("serving again");
        ctx.post(() -> { });
        assertThat(executor.runUntilIdle()).isEqualTo(1);
    }

    @Test
    void aRefusedIdlePostGoesToTheHandlerAndTheContextRecovers() {
        ManualExecutor executor = new ManualExecutor();
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        RendererSyncContext ctx = RendererSyncContext.builder().executor(executor)
                .unhandledExceptionHandler((c, t) -> handled.add(t)).build();
        executor.reject(true);

        ctx.post(() -> { });

        assertThat(handled).singleElement().isInstanceOf(RejectedExecutionException.class);
        executor.reject(false);
        List<String> ran = new CopyOnWriteArrayList<>();
        ctx.post(() -> ran.add("after"));
        executor.runUntilIdle();
        assertThat(ran).containsExactly("after");
    }

    @Test
    void aThrowingExecutorIsTreatedAsARefusal() {
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        RendererSyncContext ctx = RendererSyncContext.builder()
                .executor(task -> {
                    throw new IllegalStateException("executor broke");
                })
                .unhandledExceptionHandler((c, t) -> handled.add(t)).build();

        ctx.post(() -> { });

        assertThat(handled).singleElement().isInstanceOf(RejectedExecutionException.class);
        assertThat(handled.get(0)).hasRootCauseMessage("executor broke");
        assertThat(ctx.invokeAsync(() -> "inline still works").join()).isEqualTo("inline still works");
    }
}
