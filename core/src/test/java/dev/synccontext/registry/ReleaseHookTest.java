package dev.synccontext.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.ContextClock;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.testing.PostsUntilRefused;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link SyncContextRegistry#onRelease}: a release hook's last callback runs once, last, on its context. */
class ReleaseHookTest {

    private final ExecutorService executor = Executors.newFixedThreadPool(2);
    private final CountDownLatch gate = new CountDownLatch(1);

    @AfterEach
    void stop() {
        gate.countDown();
        executor.shutdownNow();
    }

    private SyncContextRegistry registry(Duration shutdownTimeout) {
        return new SyncContextRegistry(new ContextTemplate(executor, "test", 64, 0, Duration.ofSeconds(2),
                shutdownTimeout, null));
    }

    @Test
    void theLastCallbackRunsAfterEveryQueuedCallbackOnTheContextAndOnce() {
        SyncContextRegistry registry = registry(Duration.ofSeconds(10));
        List<String> order = new CopyOnWriteArrayList<>();
        AtomicInteger lastRuns = new AtomicInteger();
        CompletableFuture<Boolean> lastRanInside = new CompletableFuture<>();
        registry.onRelease(context -> () -> {
            lastRuns.incrementAndGet();
            order.add("last");
            lastRanInside.complete(context.checkAccess());
        });
        RendererSyncContext board = registry.forKey("board");
        board.post(() -> pass(gate));
        for (int i = 0; i < 3; i++) {
            int n = i;
            board.post(() -> order.add("queued-" + n));
        }
        registry.remove("board");
        gate.countDown();
        assertThat(lastRanInside).succeedsWithin(Duration.ofSeconds(10)).isEqualTo(true);
        assertThat(order).containsExactly("queued-0", "queued-1", "queued-2", "last");
        assertThat(lastRuns).hasValue(1);
        registry.release(board);
        assertThat(lastRuns).as("a second release does nothing").hasValue(1);
    }

    @Test
    void aReleasedContextIsNoLongerClosingOnceItsLastCallbackRanNotAtTheShutdownTimeout() {
        // A long timeout: before, the closing set and the pending forced close kept every released context
        // (an ended session's) reachable for all of it, though nothing of it could run any more.
        SyncContextRegistry registry = registry(Duration.ofMinutes(10));
        CountDownLatch lastRan = new CountDownLatch(1);
        registry.onRelease(context -> lastRan::countDown);
        RendererSyncContext board = registry.forKey("board");
        board.post(() -> pass(gate));
        board.post(() -> { });
        registry.remove("board");
        assertThat(registry.closingContexts()).as("queued work still runs: the context is closing").isEqualTo(1);
        gate.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> lastRan.getCount() == 0 && registry.closingContexts() == 0);
        assertThat(board.isClosed()).isTrue();
        assertThat(registry.forcedCloses()).isZero();
    }

    @Test
    void aContextClosedDirectlyGetsItsLastCallbackOnTheReleasingThread() {
        SyncContextRegistry registry = registry(Duration.ofSeconds(10));
        List<Thread> ranOn = new CopyOnWriteArrayList<>();
        registry.onRelease(context -> () -> ranOn.add(Thread.currentThread()));
        RendererSyncContext board = registry.forKey("board");
        board.close();
        registry.release(board);
        assertThat(ranOn).containsExactly(Thread.currentThread());
    }

    @Test
    void aForcedCloseStillRunsTheLastCallbackAndDoesNotCountItAsDropped() {
        SyncContextRegistry registry = registry(Duration.ofMillis(50));
        AtomicInteger lastRuns = new AtomicInteger();
        registry.onRelease(context -> lastRuns::incrementAndGet);
        RendererSyncContext hung = registry.forKey("hung");
        CountDownLatch started = new CountDownLatch(1);
        hung.post(() -> {
            started.countDown();
            pass(gate);
        });
        pass(started);
        hung.post(() -> { });
        registry.remove("hung");
        await().atMost(Duration.ofSeconds(10)).until(() -> registry.forcedCloses() == 1);
        assertThat(lastRuns).hasValue(1);
        assertThat(registry.cancelledPosts()).as("the user's one queued post, not the last callback").isEqualTo(1);
    }

    @Test
    void shutdownRunsTheLastCallbackOfEveryOpenContext() {
        SyncContextRegistry registry = registry(Duration.ofSeconds(5));
        List<String> released = new CopyOnWriteArrayList<>();
        registry.onRelease(context -> () -> released.add(context.name()));
        registry.forKey("a");
        registry.forKey("b");
        registry.create("session");
        registry.close();
        assertThat(released).containsExactlyInAnyOrder("a", "b", "session-1");
    }

    @Test
    void aHookMayAskForNothing() {
        SyncContextRegistry registry = registry(Duration.ofSeconds(5));
        registry.onRelease(context -> null);
        RendererSyncContext board = registry.forKey("board");
        registry.remove("board");
        assertThat(board.isClosed()).isTrue();
    }

    private static void pass(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void noCallbackAcceptedDuringAReleaseRunsAfterTheLastCallback() throws Exception {
        SyncContextRegistry registry = registry(Duration.ofSeconds(10));
        java.util.concurrent.atomic.AtomicBoolean lastRan = new java.util.concurrent.atomic.AtomicBoolean();
        AtomicInteger after = new AtomicInteger();
        registry.onRelease(context -> () -> lastRan.set(true));
        for (int round = 0; round < 300; round++) {
            lastRan.set(false);
            RendererSyncContext board = registry.forKey("board-" + round);
            PostsUntilRefused posts = PostsUntilRefused.start(board, 1, lastRan);
            registry.remove("board-" + round);
            posts.join();
            assertThat(board.awaitTermination(Duration.ofSeconds(10))).isTrue();
            assertThat(lastRan).isTrue();
            after.addAndGet(posts.ranAfterLast());
        }
        assertThat(after).as("callbacks that ran after their context's last callback").hasValue(0);
    }

    @Test
    void closingTheRegistryCancelsTheForcedCloseLeftOnTheTimerByAReleaseWithoutHooks() throws Exception {
        // Without a hook there is no last callback to cancel it: before, the clock's timer (a thread that
        // outlives the application) kept the context, the registry and the application for the whole
        // shutdown timeout after the application closed.
        List<Future<?>> forcedCloses = new CopyOnWriteArrayList<>();
        ContextClock system = ContextClock.system();
        ContextClock recording = new ContextClock() {
            @Override
            public long nanoTime() {
                return system.nanoTime();
            }

            @Override
            public Future<?> schedule(Runnable task, Duration delay) {
                Future<?> pending = system.schedule(task, delay);
                forcedCloses.add(pending);
                return pending;
            }

            @Override
            public Future<?> scheduleBackground(Runnable task, Duration delay) {
                return system.scheduleBackground(task, delay); // the watchdog's scans
            }

            @Override
            public boolean await(CompletableFuture<?> done, long timeoutNanos) throws InterruptedException {
                return system.await(done, timeoutNanos);
            }
        };
        SyncContextRegistry registry = new SyncContextRegistry(new ContextTemplate(executor, "test", 64, 0,
                Duration.ofSeconds(2), Duration.ofMinutes(10), null), null, List.of(), recording);
        RendererSyncContext board = registry.forKey("board");
        board.post(() -> pass(gate));
        registry.release(board);
        assertThat(forcedCloses).as("the forced close set by the release").hasSize(1);
        gate.countDown();
        assertThat(board.awaitTermination(Duration.ofSeconds(10))).isTrue();

        registry.close();
        assertThat(forcedCloses.get(0).isCancelled()).as("the forced close, cancelled by the registry's close")
                .isTrue();
    }
}
