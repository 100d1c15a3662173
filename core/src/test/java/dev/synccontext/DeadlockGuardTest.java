package dev.synccontext;

import static dev.synccontext.Catching.catching;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.testing.PooledTest;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Rule 9, second half: blocking inside the context on work queued behind it throws, not hangs. */
class DeadlockGuardTest extends PooledTest {

    @Test
    void joinInsideTheContextOnAFutureQueuedOnItThrowsExplainingTheDeadlock() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.builder().name("guarded").executor(pool).build();
        AtomicReference<Throwable> joinFailure = new AtomicReference<>();
        AtomicReference<Throwable> getFailure = new AtomicReference<>();
        AtomicReference<Throwable> timedGetFailure = new AtomicReference<>();
        AtomicReference<CompletableFuture<String>> behind = new AtomicReference<>();
        CompletableFuture<Void> outer;
        try (Occupier occupier = Occupier.occupy(ctx)) {
            // Both queued from outside; the first one's callback then blocks on the second.
            outer = ctx.invokeAsync(() -> {
                CompletableFuture<String> queuedBehind = behind.get();
                joinFailure.set(catching(queuedBehind::join));
                getFailure.set(catching(queuedBehind::get));
                timedGetFailure.set(catching(() -> queuedBehind.get(1, TimeUnit.SECONDS)));
            });
            behind.set(ctx.invokeAsync(() -> "runs after outer"));
        }
        outer.get(10, TimeUnit.SECONDS);
        for (Throwable t : new Throwable[] {joinFailure.get(), getFailure.get(), timedGetFailure.get()}) {
            assertThat(t).isInstanceOf(IllegalStateException.class).hasMessageContaining("Deadlock")
                    .hasMessageContaining("'guarded'");
        }
        assertThat(behind.get().get(10, TimeUnit.SECONDS)).isEqualTo("runs after outer");
    }

    @Test
    void joinOutsideTheContextOnAQueuedFutureWaitsNormally() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        CompletableFuture<String> queued;
        try (Occupier occupier = Occupier.occupy(ctx)) {
            queued = ctx.invokeAsync(() -> "fine");
        }
        assertThat(queued.join()).isEqualTo("fine");
    }

    @Test
    void cancellingAQueuedFutureBeforeItsTurnKeepsTheCallbackFromRunning() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        AtomicReference<String> ran = new AtomicReference<>();
        CompletableFuture<Void> queued;
        try (Occupier occupier = Occupier.occupy(ctx)) {
            queued = ctx.invokeAsync(() -> ran.set("ran"));
            assertThat(queued.cancel(false)).isTrue();
        }
        ctx.invokeAsync(() -> { }).get(10, TimeUnit.SECONDS);
        CompletableFuture<Void> barrier = new CompletableFuture<>();
        ctx.post(() -> barrier.complete(null));
        barrier.get(10, TimeUnit.SECONDS);
        assertThat(ran.get()).isNull();
    }

    @Test
    void theGuardDoesNotFireForFuturesAlreadyDone() {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        String value = ctx.invokeAsync(() -> ctx.invokeAsync(() -> "nested").join()).join();
        assertThat(value).isEqualTo("nested");
    }
}
