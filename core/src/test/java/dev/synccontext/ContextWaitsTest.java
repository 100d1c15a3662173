package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.testing.NoThreadLeftStuck;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A wait recorded through {@link ContextWaits} (how synccontext-reactor records a {@code block()}) is an
 * edge of the same wait-for graph as a {@code join}: it throws when it closes a cycle at once, a
 * {@code join} whose cycle runs through it throws, {@link ContextWaits#cycle} finds a cycle its need
 * closed later, and it is nothing outside a context or once closed.
 */
class ContextWaitsTest {

    @RegisterExtension
    final NoThreadLeftStuck threads = new NoThreadLeftStuck();

    @Test
    void aThreadOutsideAnyContextRecordsNothing() {
        RendererSyncContext a = RendererSyncContext.builder().name("A").build();
        try (ContextWaits.Wait wait = ContextWaits.enter(() -> a)) {
            assertThat(wait.isRecorded()).isFalse();
            assertThat(ContextWaits.cycle(wait)).isNull();
            assertThat(WaitGraph.isWaiting(Thread.currentThread())).isFalse();
        }
    }

    @Test
    void aWaitThatNeedsTheWaitersOwnContextThrowsAtOnceAndLeavesNothingRecorded() {
        RendererSyncContext a = RendererSyncContext.builder().name("A").build();
        CompletableFuture<Throwable> thrown = new CompletableFuture<>();
        a.invokeAsync(() -> { // idle: inline on this thread, inside A
            try (ContextWaits.Wait wait = ContextWaits.enter(() -> a)) {
                thrown.completeExceptionally(new AssertionError("recorded " + wait));
            } catch (ContextDeadlockException deadlock) {
                thrown.complete(deadlock);
            }
        });
        assertThat(thrown.join()).isInstanceOfSatisfying(ContextDeadlockException.class, deadlock -> {
            assertThat(deadlock.sides()).singleElement().satisfies(side -> {
                assertThat(side.holds()).isEqualTo("A");
                assertThat(side.waitsOn()).isEqualTo("A");
                assertThat(side.site().getClassName()).startsWith(ContextWaitsTest.class.getName());
            });
        });
        assertThat(WaitGraph.isWaiting(Thread.currentThread())).isFalse();
    }

    @Test
    void aJoinWhoseCycleRunsThroughARecordedWaitThrowsNamingBothSides() throws Exception {
        ExecutorService pool = threads.fixedPool(4);
        RendererSyncContext a = RendererSyncContext.builder().name("A").executor(pool).build();
        RendererSyncContext b = RendererSyncContext.builder().name("B").executor(pool).build();
        CountDownLatch recorded = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        a.post(() -> {
            try (ContextWaits.Wait wait = ContextWaits.enter(() -> b)) { // B is idle: no cycle yet
                assertThat(wait.isRecorded()).isTrue();
                recorded.countDown();
                Occupier.awaitUninterruptibly(release); // "blocks" holding A, waiting on B
            }
        });
        assertThat(recorded.await(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Throwable> onB = new CompletableFuture<>();
        b.post(() -> {
            try {
                onB.completeExceptionally(new AssertionError("joined " + a.invokeAsync(() -> 1).join()));
            } catch (Throwable t) {
                onB.complete(t);
            }
        });
        try {
            assertThat(onB.get(10, TimeUnit.SECONDS)).isInstanceOfSatisfying(ContextDeadlockException.class, d -> {
                assertThat(d.sides()).hasSize(2);
                assertThat(d.waiter().holds()).isEqualTo("B");
                assertThat(d.waiter().waitsOn()).isEqualTo("A");
                assertThat(d.other().holds()).isEqualTo("A");
                assertThat(d.other().waitsOn()).isEqualTo("B");
            });
        } finally {
            release.countDown();
        }
        assertThat(a.invokeAsync(() -> "A free again").get(10, TimeUnit.SECONDS)).isNotNull();
    }

    @Test
    void cycleFindsTheCycleANeedClosedLaterUntilTheWaitIsClosed() throws Exception {
        ExecutorService pool = threads.fixedPool(2);
        RendererSyncContext a = RendererSyncContext.builder().name("A").executor(pool).build();
        AtomicReference<RendererSyncContext> need = new AtomicReference<>();
        CompletableFuture<ContextWaits.Wait> entered = new CompletableFuture<>();
        CountDownLatch release = new CountDownLatch(1);
        a.post(() -> {
            try (ContextWaits.Wait wait = ContextWaits.enter(need::get)) {
                entered.complete(wait);
                Occupier.awaitUninterruptibly(release);
            }
        });
        ContextWaits.Wait wait = entered.get(10, TimeUnit.SECONDS);
        try {
            assertThat(ContextWaits.cycle(wait)).as("needs nothing yet").isNull();
            need.set(a); // as a task it waits for queued on A, behind it
            ContextDeadlockException deadlock = ContextWaits.cycle(wait);
            assertThat(deadlock).isNotNull();
            assertThat(deadlock.waiter().holds()).isEqualTo("A");
            assertThat(deadlock.waiter().threadName()).startsWith("pool-");
        } finally {
            wait.close();
            release.countDown();
        }
        assertThat(ContextWaits.cycle(wait)).as("closed").isNull();
    }
}
