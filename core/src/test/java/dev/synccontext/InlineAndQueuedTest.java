package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.testing.NoThreadLeftStuck;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Rule 1: idle → inline on the caller's thread; busy → queued, FIFO, on the executor. */
class InlineAndQueuedTest {

    @RegisterExtension
    final NoThreadLeftStuck guard = new NoThreadLeftStuck();

    private final ExecutorService pool = guard.pool(
            Executors.newFixedThreadPool(2, r -> guard.watch(new Thread(r, "drain-pool"))));

    @Test
    void idleInvokeAsyncRunsInlineOnTheCallerThreadBeforeReturning() {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        AtomicReference<Thread> ranOn = new AtomicReference<>();

        CompletableFuture<Void> future = ctx.invokeAsync(() -> ranOn.set(Thread.currentThread()));

        assertThat(ranOn.get()).as("callback thread").isSameAs(Thread.currentThread());
        assertThat(future).as("future of an inline call").isCompleted();
    }

    @Test
    void idleInvokeAsyncCallableCompletesWithTheValueInline() {
        RendererSyncContext ctx = RendererSyncContext.create(pool);

        CompletableFuture<String> future = ctx.invokeAsync(() -> "value");

        assertThat(future.getNow(null)).isEqualTo("value");
    }

    @Test
    void busyInvokeAsyncReturnsAtOnceAndRunsLaterOnTheExecutorInFifoOrder() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        List<String> order = new CopyOnWriteArrayList<>();
        List<Thread> threads = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> first;
        CompletableFuture<Void> third;
        try (Occupier occupier = Occupier.occupy(ctx)) {
            first = ctx.invokeAsync(() -> {
                order.add("first");
                threads.add(Thread.currentThread());
            });
            ctx.post(() -> order.add("second"));
            third = ctx.invokeAsync(() -> {
                order.add("third");
                threads.add(Thread.currentThread());
            });
            assertThat(first).as("queued while busy").isNotDone();
            assertThat(order).as("nothing ran while the context was busy").isEmpty();
            assertThat(ctx.queueDepth()).as("queue depth behind the running callback").isEqualTo(3);
        }
        // Waited for through a plain future: a thread blocked in third's own join() or get() could be handed
        // the context for it (WaiterRunsOwnTurnTest), and this test is about where the executor runs them.
        CompletableFuture.allOf(first, third).get(10, TimeUnit.SECONDS);
        assertThat(order).containsExactly("first", "second", "third");
        assertThat(threads).allSatisfy(t -> assertThat(t.getName()).isEqualTo("drain-pool"));
        assertThat(ctx.queueDepth()).isZero();
    }

    @Test
    void workQueuedBehindAnInlineCallbackNeverRunsOnThatCallersThread() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch queued = new CountDownLatch(1);
        AtomicReference<Thread> queuedRanOn = new AtomicReference<>();
        Thread caller = Thread.currentThread();

        Thread other = new Thread(() -> {
            Occupier.awaitUninterruptibly(inside);
            ctx.post(() -> queuedRanOn.set(Thread.currentThread()));
            queued.countDown();
        });
        other.start();
        ctx.invokeAsync(() -> {
            inside.countDown();
            Occupier.awaitUninterruptibly(queued);
        });
        // The inline call has returned: the post queued behind it must not have run here (it may
        // already have run on the pool).
        assertThat(queuedRanOn.get()).as("post ran on the releasing caller's thread").isNotSameAs(caller);
        CompletableFuture<Void> after = ctx.invokeAsync(() -> { });
        after.get(10, TimeUnit.SECONDS);
        other.join();
        assertThat(queuedRanOn.get()).isNotNull().isNotSameAs(caller);
        assertThat(queuedRanOn.get().getName()).isEqualTo("drain-pool");
    }

    @Test
    void anInvokeAsyncThatFindsQueuedWorkDoesNotJumpAheadOfIt() throws Exception {
        ManualExecutor executor = new ManualExecutor();
        RendererSyncContext ctx = RendererSyncContext.create(executor);
        List<String> order = new CopyOnWriteArrayList<>();

        ctx.post(() -> order.add("posted"));
        CompletableFuture<Void> later = ctx.invokeAsync(() -> { order.add("invoked"); });

        assertThat(later).as("invokeAsync behind a pending post must queue").isNotDone();
        executor.runUntilIdle();
        assertThat(order).containsExactly("posted", "invoked");
        assertThat(later).isCompleted();
    }
}
