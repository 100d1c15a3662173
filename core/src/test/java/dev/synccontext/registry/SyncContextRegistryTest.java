package dev.synccontext.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.synccontext.CallbackOutcome;
import dev.synccontext.CallbackPath;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.statistics.SyncContextStatistics;
import dev.synccontext.testing.NoThreadLeftStuck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class SyncContextRegistryTest {

    @RegisterExtension
    final NoThreadLeftStuck threads = new NoThreadLeftStuck();

    private final ExecutorService executor = threads.fixedPool(2);
    private final List<CountDownLatch> gates = new ArrayList<>();

    @AfterEach
    void releaseGates() {
        gates.forEach(CountDownLatch::countDown);
    }

    private SyncContextRegistry registry(Duration shutdownTimeout) {
        return new SyncContextRegistry(new ContextTemplate(executor, "test", 64, 0, Duration.ofSeconds(2),
                shutdownTimeout, null));
    }

    /** Posts a callback that holds the context until the returned latch is released; waits until it runs. */
    private CountDownLatch hold(RendererSyncContext context) {
        CountDownLatch gate = new CountDownLatch(1);
        gates.add(gate);
        CompletableFuture<Void> started = new CompletableFuture<>();
        context.post(() -> {
            started.complete(null);
            try {
                gate.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        started.join();
        return gate;
    }

    @Test
    void forKeyReturnsTheSameOpenContextUntilRemoved() {
        SyncContextRegistry registry = registry(Duration.ofSeconds(1));
        RendererSyncContext first = registry.forKey("board-1");
        assertThat(registry.forKey("board-1")).isSameAs(first);
        assertThat(registry.find("board-1")).containsSame(first);
        assertThat(first.name()).isEqualTo("board-1");
        assertThat(registry.remove("board-1")).isTrue();
        assertThat(first.isClosed()).isTrue();
        assertThat(registry.find("board-1")).isEmpty();
        assertThat(registry.remove("board-1")).isFalse();
        assertThat(registry.forKey("board-1")).isNotSameAs(first);
    }

    @Test
    void forKeyReplacesAContextThatWasClosedDirectly() {
        SyncContextRegistry registry = registry(Duration.ofSeconds(1));
        RendererSyncContext first = registry.forKey("k");
        first.close();
        assertThat(registry.forKey("k")).isNotSameAs(first);
        assertThat(registry.statistics(SyncContextRegistry.KEYED_SCOPE).contexts()).isEqualTo(1);
    }

    @Test
    void scopedContextsAreNamedBySequenceAndCountedPerScope() {
        SyncContextRegistry registry = registry(Duration.ofSeconds(1));
        RendererSyncContext a = registry.create("session");
        RendererSyncContext b = registry.create("session");
        registry.create("request");
        assertThat(a.name()).isEqualTo("session-1");
        assertThat(b.name()).isEqualTo("session-2");
        assertThat(registry.statistics("session").contexts()).isEqualTo(2);
        assertThat(registry.contexts()).hasSize(3);
        registry.release(a);
        assertThat(registry.statistics("session").contexts()).isEqualTo(1);
    }

    @Test
    void releaseLetsQueuedWorkFinishWithoutBlockingTheCaller() throws Exception {
        SyncContextRegistry registry = registry(Duration.ofSeconds(30));
        RendererSyncContext context = registry.create("session");
        CountDownLatch gate = hold(context);
        CompletableFuture<Void> queued = context.invokeAsync(() -> { });
        registry.release(context);                         // returns although work is queued
        assertThat(context.isClosed()).isTrue();
        assertThat(registry.closingContexts()).isEqualTo(1);
        assertThatThrownBy(() -> context.post(() -> { })).isInstanceOf(RejectedExecutionException.class);
        gate.countDown();
        queued.get(10, TimeUnit.SECONDS);                  // the queued work still ran
        assertThat(context.awaitTermination(Duration.ofSeconds(10))).isTrue();
        assertThat(registry.forcedCloses()).isZero();
    }

    @Test
    void releaseForceClosesWorkStillQueuedAfterTheTimeoutAndCountsIt() {
        SyncContextRegistry registry = registry(Duration.ofMillis(100));
        RendererSyncContext context = registry.create("session");
        SyncContextStatistics statistics = registry.statistics("session");
        CountDownLatch gate = hold(context);
        CompletableFuture<Void> queued = context.invokeAsync(() -> { });
        context.post(() -> { });
        registry.release(context);
        // The held callback is never released here: the forced close does not wait for it.
        await().atMost(Duration.ofSeconds(10)).until(() -> registry.forcedCloses() == 1);
        assertThat(gate.getCount()).as("the held callback still runs").isEqualTo(1);
        assertThat(queued).isCancelled();
        assertThat(registry.cancelledPosts()).isEqualTo(1);
        assertThat(statistics.tasks(CallbackPath.QUEUED, CallbackOutcome.CANCELLED)).isEqualTo(2);
        assertThat(registry.closingContexts()).isZero();
    }

    @Test
    void closeIsBoundedByTheShutdownTimeoutAndRefusesNewContexts() throws InterruptedException {
        SyncContextRegistry registry = registry(Duration.ofMillis(200));
        RendererSyncContext idle = registry.create("session");
        RendererSyncContext busy = registry.forKey("busy");
        CountDownLatch gate = hold(busy);
        CompletableFuture<Void> queued = busy.invokeAsync(() -> { });
        Thread closer = new Thread(registry::close, "closer");
        closer.start();
        // Past the deadline, close() force-closes, which does not wait for the held callback.
        closer.join(10_000);
        assertThat(gate.getCount()).as("the held callback still runs").isEqualTo(1);
        assertThat(closer.isAlive()).isFalse();
        assertThat(registry.forcedCloses()).isEqualTo(1);
        assertThat(idle.isClosed()).isTrue();
        assertThat(queued).isCancelled();
        assertThatThrownBy(() -> registry.create("session")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        assertThat(registry.contexts()).isEmpty();
    }

    @Test
    void releaseIgnoresContextsItDoesNotTrack() {
        SyncContextRegistry registry = registry(Duration.ofSeconds(1));
        RendererSyncContext foreign = RendererSyncContext.create();
        registry.release(foreign);
        assertThat(foreign.isClosed()).isFalse();
    }

    @Test
    void onEachScopeSeesExistingAndLaterScopes() {
        SyncContextRegistry registry = registry(Duration.ofSeconds(1));
        registry.create("session");
        List<String> seen = new ArrayList<>();
        registry.onEachScope(s -> seen.add(s.scope()));
        registry.forKey("x");
        registry.create("session");
        assertThat(seen).containsExactly("session", SyncContextRegistry.KEYED_SCOPE);
    }

    @Test
    void contextsOfAScopeShareOneStatisticsObject() {
        SyncContextRegistry registry = registry(Duration.ofSeconds(1));
        for (int i = 0; i < 10; i++) {
            registry.create("session").invokeAsync(() -> { }).join();
        }
        assertThat(registry.statistics()).hasSize(1);
        assertThat(registry.statistics("session").tasks(CallbackPath.INLINE, CallbackOutcome.SUCCESS)).isEqualTo(10);
    }
}
