package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.testing.PooledTest;
import dev.synccontext.testing.Race;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A context closed because the application shuts down ({@link RendererSyncContext#closeForShutdown()}) refuses
 * every new callback with the typed {@link ContextShuttingDownException}, naming itself and saying why, and
 * otherwise closes exactly as {@link RendererSyncContext#close()}; a plain close keeps its plain refusal.
 */
class CloseForShutdownTest extends PooledTest {

    @Test
    void everyEntryPointRefusesWithTheTypedReasonNamingTheContext() {
        RendererSyncContext ctx = RendererSyncContext.builder().name("tab-7").executor(pool).build();
        ctx.closeForShutdown();

        assertThat(ctx.isClosed()).isTrue();
        CompletableFuture<Void> invoked = ctx.invokeAsync(() -> { });
        assertThatThrownBy(invoked::join).isInstanceOf(CompletionException.class)
                .cause().isInstanceOf(ContextShuttingDownException.class)
                .hasMessageContaining("'tab-7'").hasMessageContaining("application is shutting down");
        assertThatThrownBy(() -> ctx.invokeAsyncStage(() -> CompletableFuture.completedFuture(1)).join())
                .cause().isInstanceOf(ContextShuttingDownException.class);
        assertThatThrownBy(() -> ctx.post(() -> { })).isInstanceOf(ContextShuttingDownException.class)
                .isInstanceOf(RejectedExecutionException.class) // existing catch blocks still catch it
                .hasMessageContaining("'tab-7'").hasMessageContaining("shutting down")
                .satisfies(refused -> assertThat(((ContextShuttingDownException) refused).contextName()).isEqualTo("tab-7"));
        assertThatThrownBy(() -> ctx.execute(() -> { })).isInstanceOf(ContextShuttingDownException.class);
        assertThatThrownBy(() -> ctx.send(() -> { })).isInstanceOf(ContextShuttingDownException.class);
        assertThatThrownBy(() -> ctx.closeAfter(() -> { })).isInstanceOf(ContextShuttingDownException.class);
    }

    @Test
    void aPlainCloseStillRefusesWithThePlainClosedMessage() {
        RendererSyncContext ctx = RendererSyncContext.builder().name("tab-8").executor(pool).build();
        ctx.close();

        assertThatThrownBy(() -> ctx.post(() -> { })).isExactlyInstanceOf(RejectedExecutionException.class)
                .hasMessage("Context 'tab-8' is closed and accepts no new callbacks");
        assertThatThrownBy(() -> ctx.invokeAsync(() -> { }).join()).cause()
                .isExactlyInstanceOf(RejectedExecutionException.class).hasMessageContaining("is closed");
    }

    @Test
    void acceptedWorkStillRunsAndOnlyLaterSubmissionsAreRefused() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.builder().name("busy").executor(pool).build();
        List<String> ran = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> queued;
        Throwable refused;
        try (Occupier occupier = Occupier.occupy(ctx)) {
            queued = ctx.invokeAsync(() -> { ran.add("queued"); });
            ctx.post(() -> ran.add("posted"));
            ctx.closeForShutdown();
            refused = ctx.invokeAsync(() -> { ran.add("must not run"); }).handle((ok, failure) -> failure).join();
        }
        assertThat(ctx.awaitTermination(Duration.ofSeconds(10))).isTrue();
        assertThat(ran).containsExactly("queued", "posted");
        assertThat(queued).isCompleted();
        assertThat(refused).isInstanceOf(ContextShuttingDownException.class).hasMessageContaining("'busy'");
    }

    @Test
    void aFullQueueKeepsItsOwnRefusal() {
        RendererSyncContext ctx = RendererSyncContext.builder().name("full").executor(pool).maxQueueDepth(1).build();
        try (Occupier occupier = Occupier.occupy(ctx)) {
            ctx.post(() -> { });
            assertThatThrownBy(() -> ctx.post(() -> { })).isExactlyInstanceOf(RejectedExecutionException.class)
                    .hasMessageContaining("is full");
        }
    }

    @Test
    void closingForShutdownAfterAPlainCloseGivesLaterRefusalsTheReason() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.builder().name("released").executor(pool).build();
        ctx.close();
        assertThatThrownBy(() -> ctx.post(() -> { })).isExactlyInstanceOf(RejectedExecutionException.class);
        ctx.closeForShutdown();
        assertThatThrownBy(() -> ctx.post(() -> { })).isInstanceOf(ContextShuttingDownException.class);
        assertThat(ctx.awaitTermination(Duration.ofSeconds(1))).isTrue();
    }

    /**
     * Posts racing the close from four threads: each one runs or is refused with the typed reason, never with the
     * plain "closed" one (the reason is set before the state says closed), and none is lost.
     */
    @Test
    void postsRacingTheShutdownCloseEachRunOrGetTheTypedReason() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.builder().name("raced").executor(pool).build();
        int threadsCount = 4;
        int perThread = 20_000;
        AtomicLong ran = new AtomicLong();
        AtomicLong typed = new AtomicLong();
        List<Throwable> other = new CopyOnWriteArrayList<>();
        CountDownLatch someRan = new CountDownLatch(1_000);
        List<Callable<Void>> racers = new ArrayList<>();
        for (int t = 0; t < threadsCount; t++) {
            racers.add(() -> {
                for (int i = 0; i < perThread; i++) {
                    try {
                        ctx.post(() -> {
                            ran.incrementAndGet();
                            someRan.countDown();
                        });
                    } catch (ContextShuttingDownException refused) {
                        typed.incrementAndGet();
                    } catch (RuntimeException refused) {
                        other.add(refused);
                    }
                }
                return null;
            });
        }
        racers.add(() -> { // the close, once some posts ran, while the posters still post
            assertThat(someRan.await(30, TimeUnit.SECONDS)).as("posts ran before the close").isTrue();
            ctx.closeForShutdown();
            return null;
        });
        Race.run(Duration.ofSeconds(30), racers);
        assertThat(ctx.awaitTermination(Duration.ofSeconds(30))).isTrue();
        assertThat(other).as("refusals without the reason").isEmpty();
        assertThat(ran.get() + typed.get()).as("ran + refused = submitted").isEqualTo((long) threadsCount * perThread);
        System.out.printf("closeForShutdown race: %d ran, %d refused with the reason%n", ran.get(), typed.get());
    }
}
