package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Posts from a callback that a drain runs, to its own context (a continuation that yields, the
 * pattern of {@code PostSerial}): they queue in FIFO order behind what was accepted before them, the
 * queue depth counts them exactly while the drain still runs, and whatever way the drain gives the
 * context up (running dry, its batch budget, a send's hand-off, closeNow) the count comes back to zero,
 * so the context terminates. (A variant that reserved such posts 64 at a time was measured, gave no
 * measurable gain on a quiet machine, and was reverted; these rules were written for it and hold for
 * any such scheme.) Every test drives the drain on the test thread through a {@link ManualExecutor}.
 */
class OwnDrainPostsTest {

    private final ManualExecutor executor = new ManualExecutor();

    @Test
    void postsFromADrainedCallbackQueueBehindWhatWasAcceptedBeforeThemAndCountExactly() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.builder().executor(executor).build();
        List<String> order = new CopyOnWriteArrayList<>();
        List<Integer> depthSeenInside = new ArrayList<>();
        ctx.post(() -> {
            order.add("A");
            depthSeenInside.add(ctx.queueDepth());
            ctx.post(() -> order.add("A1"));
            ctx.post(() -> order.add("A2"));
            depthSeenInside.add(ctx.queueDepth());
        });
        ctx.post(() -> {
            order.add("B");
            ctx.post(() -> order.add("B1"));
        });

        executor.runUntilIdle();

        assertThat(order).containsExactly("A", "B", "A1", "A2", "B1");
        assertThat(depthSeenInside).as("queue depth inside A: B alone, then B, A1, A2").containsExactly(1, 3);
        assertTerminatesWhenClosed(ctx);
    }

    @Test
    void aCallbackThatRepostsItselfPastManyBatchBudgetsLosesNothing() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.builder().executor(executor).maxBatch(10).build();
        int steps = 1_000; // crosses the 10-callback budget many times
        List<Integer> ran = new ArrayList<>();
        Runnable[] step = new Runnable[1];
        step[0] = () -> {
            ran.add(ran.size());
            if (ran.size() < steps) {
                ctx.post(step[0]);
            }
        };
        ctx.post(step[0]);

        int drains = executor.runUntilIdle();

        assertThat(ran).hasSize(steps);
        for (int i = 0; i < steps; i++) {
            assertThat(ran.get(i)).isEqualTo(i);
        }
        assertThat(drains).as("one drain per 10-callback budget").isEqualTo(steps / 10);
        assertTerminatesWhenClosed(ctx);
    }

    @Test
    void aSendHandedTheContextAfterOwnPostsGetsItAndTheCountComesBack() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.builder().executor(executor).build();
        List<String> order = new CopyOnWriteArrayList<>();
        ctx.post(() -> {
            order.add("A");
            ctx.post(() -> order.add("A1"));
        });
        AtomicReference<Throwable> senderFailure = new AtomicReference<>();
        Thread sender = new Thread(() -> {
            try {
                ctx.send(() -> order.add("S"));
            } catch (Throwable t) {
                senderFailure.set(t);
            }
        }, "sender");
        sender.start();
        PostAndSendTest.awaitQueueDepth(ctx, 2);

        executor.runUntilIdle(); // runs A, then hands the context to the sender, which runs S on its thread
        sender.join(10_000);
        executor.runUntilIdle(); // the sender's release scheduled a drain for A1

        assertThat(senderFailure.get()).isNull();
        assertThat(order).containsExactly("A", "S", "A1");
        assertTerminatesWhenClosed(ctx);
    }

    @Test
    void closeNowFromOutsideReturnsTheOwnPostsAndTheContextTerminatesOnceTheCallbackReturns() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.builder().executor(executor).build();
        CountDownLatch posted = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<String> ran = new CopyOnWriteArrayList<>();
        Runnable p1 = () -> ran.add("P1");
        Runnable p2 = () -> ran.add("P2");
        ctx.post(() -> {
            ctx.post(p1);
            ctx.post(p2);
            posted.countDown();
            Occupier.awaitUninterruptibly(release);
        });
        Thread drain = new Thread(executor::runUntilIdle, "drain");
        drain.start();
        Occupier.awaitUninterruptibly(posted);

        List<Runnable> returned = ctx.closeNow();

        assertThat(returned).containsExactly(p1, p2);
        assertThat(ctx.awaitTermination(Duration.ZERO)).as("terminated while the callback still runs").isFalse();
        release.countDown();
        drain.join(10_000);
        assertThat(ctx.awaitTermination(Duration.ofSeconds(10))).isTrue();
        assertThat(ran).isEmpty();
        assertThat(ctx.queueDepth()).isZero();
    }

    @Test
    void closeNowFromTheDrainedCallbackItselfReturnsItsOwnPosts() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.builder().executor(executor).build();
        List<String> ran = new CopyOnWriteArrayList<>();
        AtomicReference<List<Runnable>> returned = new AtomicReference<>();
        Runnable p1 = () -> ran.add("P1");
        ctx.post(() -> {
            ctx.post(p1);
            returned.set(ctx.closeNow());
        });

        executor.runUntilIdle();

        assertThat(returned.get()).containsExactly(p1);
        assertThat(ran).isEmpty();
        assertThat(ctx.awaitTermination(Duration.ofSeconds(10))).isTrue();
    }

    @Test
    void withAQueueBoundOwnPostsAreRefusedAtTheBound() {
        RendererSyncContext ctx = RendererSyncContext.builder().executor(executor).maxQueueDepth(2).build();
        List<Throwable> refused = new ArrayList<>();
        ctx.post(() -> {
            ctx.post(() -> { });
            ctx.post(() -> { });
            try {
                ctx.post(() -> { });
            } catch (Throwable t) {
                refused.add(t);
            }
        });

        executor.runUntilIdle();

        assertThat(refused).singleElement().satisfies(t -> assertThat(t).hasMessageContaining("is full"));
    }

    private static void assertTerminatesWhenClosed(RendererSyncContext ctx) throws InterruptedException {
        assertThat(ctx.queueDepth()).isZero();
        ctx.close();
        assertThat(ctx.awaitTermination(Duration.ZERO)).as("terminated at once: nothing left in the count").isTrue();
    }
}
