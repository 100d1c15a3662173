package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.testing.PooledTest;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Rule 2: post/execute never inline; send blocks for its FIFO turn on the caller; nested calls run now. */
class PostAndSendTest extends PooledTest {

    /** The two names of the one call that queues: {@code execute} is {@code post}. */
    enum Queueing {
        POST, EXECUTE
    }

    @ParameterizedTest
    @EnumSource(Queueing.class)
    void postAndExecuteNeverRunInsideTheCallEvenWhenIdle(Queueing call) {
        ManualExecutor executor = new ManualExecutor();
        RendererSyncContext ctx = RendererSyncContext.create(executor);
        AtomicBoolean ran = new AtomicBoolean();
        Runnable callback = () -> ran.set(true);

        switch (call) {
            case POST -> ctx.post(callback);
            case EXECUTE -> ctx.execute(callback);
        }

        assertThat(ran).as("%s ran inline", call).isFalse();
        assertThat(ctx.queueDepth()).isEqualTo(1);
        assertThat(executor.pending()).as("one drain scheduled").isEqualTo(1);
        executor.runUntilIdle();
        assertThat(ran).isTrue();
    }

    @Test
    void postFromInsideTheContextIsQueuedNotNested() {
        ManualExecutor executor = new ManualExecutor();
        RendererSyncContext ctx = RendererSyncContext.create(executor);
        List<String> order = new CopyOnWriteArrayList<>();

        ctx.invokeAsync(() -> {
            ctx.post(() -> order.add("posted"));
            order.add("after post");
        });

        assertThat(order).containsExactly("after post");
        executor.runUntilIdle();
        assertThat(order).containsExactly("after post", "posted");
    }

    @Test
    void sendRunsInlineOnTheCallerWhenIdle() {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        AtomicReference<Thread> ranOn = new AtomicReference<>();

        ctx.send(() -> ranOn.set(Thread.currentThread()));

        assertThat(ranOn.get()).isSameAs(Thread.currentThread());
    }

    @Test
    void sendBlocksUntilItsFifoTurnThenRunsOnTheCallersThread() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        List<String> order = new CopyOnWriteArrayList<>();
        AtomicReference<Thread> sendRanOn = new AtomicReference<>();
        CountDownLatch sent = new CountDownLatch(1);
        Thread sender;
        try (Occupier occupier = Occupier.occupy(ctx)) {
            ctx.post(() -> order.add("post before"));
            sender = new Thread(() -> {
                ctx.send(() -> {
                    order.add("send");
                    sendRanOn.set(Thread.currentThread());
                });
                sent.countDown();
            }, "sender");
            sender.start();
            awaitQueueDepth(ctx, 2);
            ctx.post(() -> order.add("post after"));
            assertThat(sent.getCount()).as("send returned while the context was busy").isEqualTo(1);
        }
        assertThat(sent.await(10, TimeUnit.SECONDS)).isTrue();
        ctx.invokeAsync(() -> { }).get(10, TimeUnit.SECONDS);
        awaitQueueDepth(ctx, 0);
        CompletableFuture<Void> barrier = new CompletableFuture<>();
        ctx.post(() -> barrier.complete(null));
        barrier.get(10, TimeUnit.SECONDS);
        assertThat(order).containsExactly("post before", "send", "post after");
        assertThat(sendRanOn.get()).isSameAs(sender);
    }

    @Test
    void sendAndInvokeAsyncFromInsideRunNestedRightAwayWithoutDeadlock() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        List<String> order = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> done = new CompletableFuture<>();

        ctx.post(() -> {
            order.add("outer start");
            ctx.send(() -> order.add("nested send"));
            CompletableFuture<Void> nested = ctx.invokeAsync(() -> { order.add("nested invoke"); });
            order.add(nested.isDone() ? "nested future done" : "nested future pending");
            order.add("outer end");
            done.complete(null);
        });

        done.get(10, TimeUnit.SECONDS);
        assertThat(order).containsExactly("outer start", "nested send", "nested invoke", "nested future done",
                "outer end");
    }

    @Test
    void nestedInvokeAsyncJumpsAheadOfQueuedWork() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        List<String> order = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> last = ctx.invokeAsync(() -> {
            ctx.post(() -> order.add("queued"));
            ctx.invokeAsync(() -> order.add("nested"));
        });
        last.get(10, TimeUnit.SECONDS);
        CompletableFuture<Void> barrier = new CompletableFuture<>();
        ctx.post(() -> barrier.complete(null));
        barrier.get(10, TimeUnit.SECONDS);
        assertThat(order).containsExactly("nested", "queued");
    }

    @Test
    void sendRethrowsTheCallbacksException() {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        IllegalStateException boom = new IllegalStateException("boom");

        assertThatThrownBy(() -> ctx.send(() -> {
            throw boom;
        })).isSameAs(boom);
        // and the context is released
        assertThat(ctx.invokeAsync(() -> { })).isCompleted();
    }

    @Test
    void queuedSendRethrowsTheCallbacksExceptionOnTheSender() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread sender;
        try (Occupier occupier = Occupier.occupy(ctx)) {
            sender = new Thread(() -> {
                try {
                    ctx.send(() -> {
                        throw new IllegalArgumentException("from queued send");
                    });
                } catch (Throwable t) {
                    thrown.set(t);
                }
            });
            sender.start();
            awaitQueueDepth(ctx, 1);
        }
        sender.join(10_000);
        assertThat(thrown.get()).isInstanceOf(IllegalArgumentException.class).hasMessage("from queued send");
        assertThat(ctx.invokeAsync(() -> "ok").get(10, TimeUnit.SECONDS)).isEqualTo("ok");
    }

    @Test
    void aSenderInterruptedWhileWaitingWithdrawsAndKeepsItsInterruptStatus() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        AtomicBoolean ran = new AtomicBoolean();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicBoolean interruptKept = new AtomicBoolean();
        Thread sender;
        try (Occupier occupier = Occupier.occupy(ctx)) {
            sender = new Thread(() -> {
                try {
                    ctx.send(() -> ran.set(true));
                } catch (Throwable t) {
                    thrown.set(t);
                    interruptKept.set(Thread.currentThread().isInterrupted());
                }
            });
            sender.start();
            awaitQueueDepth(ctx, 1);
            sender.interrupt();
            sender.join(10_000);
        }
        assertThat(thrown.get()).isInstanceOf(CancellationException.class).hasMessageContaining("interrupted");
        assertThat(interruptKept).isTrue();
        assertThat(ctx.invokeAsync(() -> "still serving").get(10, TimeUnit.SECONDS)).isEqualTo("still serving");
        assertThat(ran).as("withdrawn send ran anyway").isFalse();
    }

    static void awaitQueueDepth(RendererSyncContext ctx, int depth) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (ctx.queueDepth() != depth) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("queue depth stayed " + ctx.queueDepth() + ", expected " + depth);
            }
            Thread.sleep(1); // polling an observable state, not papering over a race
        }
    }
}
