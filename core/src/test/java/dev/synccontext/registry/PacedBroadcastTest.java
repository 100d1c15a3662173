package dev.synccontext.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.ManualExecutor;
import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link SyncContextRegistry#broadcastAsync}'s rules on a {@link ManualExecutor} (FIFO, run by the test): who
 * waits behind a broadcast, exactly once, order between broadcasts, refusals, closes during it, and its stage.
 */
class PacedBroadcastTest {

    private static final int WINDOW = PacedFanout.WINDOW;

    private final ManualExecutor executor = new ManualExecutor();
    private final SyncContextRegistry registry = registry(executor);
    private final Map<RendererSyncContext, List<String>> received = new ConcurrentHashMap<>();

    @AfterEach
    void close() {
        executor.runUntilIdle();
        registry.close();
    }

    private static SyncContextRegistry registry(Executor executor) {
        return new SyncContextRegistry(new ContextTemplate(executor, "manual", 64, 0, Duration.ofSeconds(2),
                Duration.ofSeconds(10), null));
    }

    private Runnable record(String label) {
        return () -> received.computeIfAbsent(RendererSyncContext.current().orElseThrow(), c -> new ArrayList<>())
                .add(label);
    }

    private List<RendererSyncContext> sessions(int count) {
        List<RendererSyncContext> all = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            all.add(registry.create("session"));
        }
        return all;
    }

    /** Executor tasks that run before {@code other}'s callback, posted now, has run. */
    private int tasksBefore(RendererSyncContext other) {
        CompletableFuture<Void> ran = new CompletableFuture<>();
        other.post(() -> ran.complete(null));
        int before = 0;
        while (!ran.isDone()) {
            assertThat(executor.runNext()).describedAs("the other context's callback is queued").isTrue();
            before++;
        }
        return before - 1; // its own drain
    }

    @Test
    void premiseASynchronousBroadcastMakesAnotherContextsPostWaitForTheWholeBurst() {
        sessions(5 * WINDOW);
        RendererSyncContext other = registry.create("websocket");
        registry.broadcast("session", record("tick"));
        assertThat(tasksBefore(other)).describedAs("one drain per session, queued FIFO before the other's")
                .isEqualTo(5 * WINDOW);
    }

    @Test
    void aPacedBroadcastMakesAnotherContextsPostWaitForOneWindowAtMost() {
        sessions(5 * WINDOW);
        RendererSyncContext other = registry.create("websocket");
        CompletableFuture<Broadcast> done = registry.broadcastAsync("session", record("tick")).toCompletableFuture();
        assertThat(tasksBefore(other)).describedAs("the first window's drains and the pump").isEqualTo(WINDOW + 1);
        executor.runUntilIdle();
        assertThat(done).isCompletedWithValue(new Broadcast(5 * WINDOW, 0));
        assertThat(received).hasSize(5 * WINDOW);
    }

    @Test
    void aWindowDoublesPerBroadcastWaitingBehindSoThatBroadcastsCatchUp() {
        sessions(8 * WINDOW);
        registry.broadcastAsync("session", record("first"));
        registry.broadcastAsync("session", record("second"));
        registry.broadcastAsync("session", record("third"));
        assertThat(executor.pending()).describedAs("the first window, none waiting yet, and the pump").isEqualTo(WINDOW + 1);
        for (int i = 0; i < WINDOW + 1; i++) {
            executor.runNext();
        }
        assertThat(executor.pending()).describedAs("two broadcasts behind: a window of four, and the pump")
                .isEqualTo(4 * WINDOW + 1);
        executor.runUntilIdle();
        assertThat(received).hasSize(8 * WINDOW)
                .allSatisfy((context, labels) -> assertThat(labels).containsExactly("first", "second", "third"));
    }

    @Test
    void everyOpenContextOfEveryScopeGetsItExactlyOnce() {
        List<RendererSyncContext> all = sessions(3 * WINDOW + 5);
        all.add(registry.forKey("room-1"));
        CompletableFuture<Broadcast> done = registry.broadcastAsync(c -> true, record("tick")).toCompletableFuture();
        assertThat(done).describedAs("more than a window: not all tried yet").isNotDone();
        assertThat(received).describedAs("posted, never run on the caller").isEmpty();
        executor.runUntilIdle();
        assertThat(done).isCompletedWithValue(new Broadcast(all.size(), 0));
        assertThat(received).containsOnlyKeys(all).allSatisfy((context, labels) -> assertThat(labels).containsExactly("tick"));
    }

    @Test
    void broadcastsReachEachContextInCallOrderTheSecondStartingOnceTheFirstTriedEveryContext() {
        List<RendererSyncContext> all = sessions(3 * WINDOW);
        CompletableFuture<Broadcast> first = registry.broadcastAsync("session", record("first")).toCompletableFuture();
        AtomicInteger secondRanBeforeFirstDone = new AtomicInteger();
        CompletableFuture<Broadcast> second = registry.broadcastAsync("session", () -> {
            if (!first.isDone()) {
                secondRanBeforeFirstDone.incrementAndGet();
            }
            record("second").run();
        }).toCompletableFuture();
        executor.runUntilIdle();
        assertThat(secondRanBeforeFirstDone).hasValue(0);
        assertThat(second).isCompletedWithValue(new Broadcast(all.size(), 0));
        assertThat(received).hasSize(all.size())
                .allSatisfy((context, labels) -> assertThat(labels).containsExactly("first", "second"));
    }

    @Test
    void aRefusalIsCountedNeverThrownAndTheOthersStillGetIt() {
        List<RendererSyncContext> all = sessions(WINDOW + 2);
        RendererSyncContext closed = all.get(3);
        closed.close(); // still tracked: the broadcast finds it and it refuses
        CompletableFuture<Broadcast> done = registry.broadcastAsync("session", record("tick")).toCompletableFuture();
        executor.runUntilIdle();
        assertThat(done).isCompletedWithValue(new Broadcast(WINDOW + 1, 1));
        assertThat(registry.refusedCallbacks()).isEqualTo(1);
        assertThat(received).hasSize(WINDOW + 1).doesNotContainKey(closed);
    }

    @Test
    void aContextClosedMidBroadcastRunsWhatItAcceptedAndRefusesWhatCameLater() {
        List<RendererSyncContext> all = sessions(2 * WINDOW + 3);
        CompletableFuture<Broadcast> done = registry.broadcastAsync("session", record("tick")).toCompletableFuture();
        RendererSyncContext tried = all.stream().filter(c -> c.queueDepth() > 0).findFirst().orElseThrow();
        RendererSyncContext untried = all.stream().filter(c -> c.queueDepth() == 0).findFirst().orElseThrow();
        registry.release(tried); // graceful: what it accepted still runs
        untried.close();
        executor.runUntilIdle();
        assertThat(done).isCompletedWithValue(new Broadcast(all.size() - 1, 1));
        assertThat(received).containsKey(tried).doesNotContainKey(untried).hasSize(all.size() - 1);
    }

    @Test
    void aSmallBroadcastCompletesOnTheCallingThread() {
        sessions(3);
        CompletableFuture<Broadcast> done = registry.broadcastAsync("session", record("tick")).toCompletableFuture();
        assertThat(done).isCompletedWithValue(new Broadcast(3, 0));
        assertThat(registry.broadcastAsync("no-such-scope", record("tick")).toCompletableFuture())
                .isCompletedWithValue(new Broadcast(0, 0));
        assertThat(received).isEmpty();
    }

    @Test
    void aPredicateThatThrowsFailsItsStageOnlyAndTheNextBroadcastStillRuns() {
        List<RendererSyncContext> all = sessions(2 * WINDOW);
        AtomicInteger tested = new AtomicInteger();
        IllegalStateException boom = new IllegalStateException("boom");
        CompletableFuture<Broadcast> failed = registry.broadcastAsync(c -> {
            if (tested.incrementAndGet() == WINDOW + 3) {
                throw boom;
            }
            return true;
        }, record("first")).toCompletableFuture();
        CompletableFuture<Broadcast> next = registry.broadcastAsync("session", record("second")).toCompletableFuture();
        executor.runUntilIdle();
        assertThatThrownBy(failed::join).isInstanceOf(CompletionException.class).hasCause(boom);
        assertThat(next).isCompletedWithValue(new Broadcast(all.size(), 0));
        long firsts = received.values().stream().filter(labels -> labels.contains("first")).count();
        assertThat(firsts).describedAs("the contexts tried before keep it").isEqualTo(WINDOW + 2);
    }

    @Test
    void anExecutorThatRefusesThePumpLeavesItOnItsThreadAndNothingIsDropped() {
        ManualExecutor drains = new ManualExecutor();
        Executor refusingThePump = task -> {
            if (task.getClass().getName().contains("PacedFanout")) {
                throw new RejectedExecutionException("shut down");
            }
            drains.execute(task);
        };
        try (SyncContextRegistry refusing = registry(refusingThePump)) {
            for (int i = 0; i < 3 * WINDOW; i++) {
                refusing.create("session");
            }
            CompletableFuture<Broadcast> done = refusing.broadcastAsync("session", record("tick")).toCompletableFuture();
            assertThat(done).describedAs("posted on, on the caller").isCompletedWithValue(new Broadcast(3 * WINDOW, 0));
            drains.runUntilIdle();
            assertThat(received).hasSize(3 * WINDOW);
        }
    }
}
