package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.testing.PooledTest;
import dev.synccontext.testing.PostsUntilRefused;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * {@link RendererSyncContext#closeAfter}: the last callback is queued and the context closed in one step, so
 * no callback runs after it; the premise shows a post followed by {@code close()} letting some through.
 */
class CloseAfterTest extends PooledTest {

    CloseAfterTest() {
        super(3);
    }

    @Test
    void theLastCallbackRunsAfterEverythingAcceptedAndLaterWorkIsRefused() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.builder().name("board").executor(pool).maxQueueDepth(2).build();
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch holding = new CountDownLatch(1);
        List<String> order = new CopyOnWriteArrayList<>();
        ctx.post(() -> {
            holding.countDown();
            Occupier.awaitUninterruptibly(gate);
        });
        holding.await(); // running now: not counted as waiting
        ctx.post(() -> order.add("a"));
        ctx.post(() -> order.add("b")); // the queue is full now (2 waiting)
        AtomicBoolean lastInside = new AtomicBoolean();
        ctx.closeAfter(() -> {
            order.add("last");
            lastInside.set(ctx.checkAccess());
        });
        assertThat(ctx.isClosed()).isTrue();
        assertThatThrownBy(() -> ctx.post(() -> order.add("late"))).isInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining("'board'").hasMessageContaining("closed");
        assertThatThrownBy(() -> ctx.closeAfter(() -> order.add("second last")))
                .isInstanceOf(RejectedExecutionException.class);
        gate.countDown();
        assertThat(ctx.awaitTermination(Duration.ofSeconds(10))).isTrue();
        assertThat(order).as("the queue bound does not refuse the last callback").containsExactly("a", "b", "last");
        assertThat(lastInside).as("on the context").isTrue();
    }

    @Test
    void onAnIdleContextTheLastCallbackRunsAndTheContextTerminates() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        AtomicInteger ran = new AtomicInteger();
        ctx.closeAfter(ran::incrementAndGet);
        assertThat(ctx.awaitTermination(Duration.ofSeconds(10))).isTrue();
        assertThat(ran).hasValue(1);
    }

    @Test
    void noCallbackRunsAfterTheLastOneWhileProducersRaceTheClose() throws Exception {
        int violations = race(RendererSyncContext::closeAfter);
        assertThat(violations).as("callbacks that ran after the last one").isZero();
    }

    @Test
    void premiseAPostThenCloseLetsCallbacksRunAfterTheLastOne() throws Exception {
        int violations = race((ctx, last) -> {
            ctx.post(last);
            ctx.close();
        });
        assertThat(violations).as("without the one step, producers slip in between").isPositive();
    }

    /** 500 rounds of two producers posting until refused while the main thread ends the context. */
    private int race(BiConsumer<RendererSyncContext, Runnable> end) throws Exception {
        int violations = 0;
        for (int round = 0; round < 500; round++) {
            RendererSyncContext ctx = RendererSyncContext.create(pool);
            AtomicBoolean lastRan = new AtomicBoolean();
            PostsUntilRefused posts = PostsUntilRefused.start(ctx, 2, lastRan);
            for (long until = System.nanoTime() + ThreadLocalRandom.current().nextLong(50_000); System.nanoTime() < until; ) {
                Thread.onSpinWait();
            }
            end.accept(ctx, () -> lastRan.set(true));
            posts.join();
            assertThat(ctx.awaitTermination(Duration.ofSeconds(10))).isTrue();
            assertThat(lastRan).isTrue();
            violations += posts.ranAfterLast();
        }
        return violations;
    }
}
