package dev.synccontext.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.ManualExecutor;
import dev.synccontext.Occupier;
import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The semantic contract of {@link RendererSyncContext} (docs/DESIGN.md, "The contract"), run against any implementation:
 * subclasses say how to build a context. The real context and {@link BaselineSyncContext} must both
 * pass it. Blocking waits are bounded, so a broken implementation fails instead of hanging.
 */
abstract class SyncContextContract {

    static final long WAIT_SECONDS = 10;

    private final List<ExecutorService> pools = new ArrayList<>();

    /**
     * A fresh context.
     *
     * @param maxQueueDepth 0 for unbounded
     * @param handler receives post failures; null for the default
     */
    abstract RendererSyncContext newContext(String name, Executor executor, int maxQueueDepth,
            BiConsumer<RendererSyncContext, Throwable> handler);

    RendererSyncContext newContext(Executor executor) {
        return newContext("contract", executor, 0, null);
    }

    ExecutorService pool(int threads) {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        pools.add(pool);
        return pool;
    }

    @AfterEach
    void stopPools() {
        pools.forEach(ExecutorService::shutdownNow);
    }

    static void await(CountDownLatch latch) {
        try {
            if (!latch.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new IllegalStateException("latch not released in time");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void invokeAsyncRunsInlineOnTheCallersThreadWhenIdle() {
        ManualExecutor executor = new ManualExecutor();
        RendererSyncContext ctx = newContext(executor);
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        CompletableFuture<Void> f = ctx.invokeAsync(() -> ranOn.set(Thread.currentThread()));
        assertThat(f).as("future of an idle invokeAsync").isCompleted();
        assertThat(ranOn.get()).isSameAs(Thread.currentThread());
        assertThat(executor.pending()).as("executor tasks for an inline call").isZero();
    }

    @Test
    void nestedInvokeAsyncRunsNowInsideTheCallback() {
        RendererSyncContext ctx = newContext(new ManualExecutor());
        List<String> order = new ArrayList<>();
        ctx.invokeAsync(() -> {
            order.add("outer-start");
            CompletableFuture<Void> inner = ctx.invokeAsync(() -> {
                order.add("inner");
            });
            assertThat(inner).isCompleted();
            order.add("outer-end");
        }).join();
        assertThat(order).containsExactly("outer-start", "inner", "outer-end");
    }

    @Test
    void postNeverRunsInlineEvenWhenIdle() {
        ManualExecutor executor = new ManualExecutor();
        RendererSyncContext ctx = newContext(executor);
        AtomicInteger ran = new AtomicInteger();
        ctx.post(ran::incrementAndGet);
        assertThat(ran).as("post ran inside post()").hasValue(0);
        executor.runUntilIdle();
        assertThat(ran).hasValue(1);
    }

    @Test
    void queuedCallbacksRunInFifoOrderOnTheExecutor() throws Exception {
        RendererSyncContext ctx = newContext(pool(2));
        Occupier occupier = Occupier.occupy(ctx);
        List<Integer> order = Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<?>> futures = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            int n = i;
            if (i % 2 == 0) {
                ctx.post(() -> order.add(n));
            } else {
                futures.add(ctx.invokeAsync(() -> {
                    order.add(n);
                    threads.add(Thread.currentThread());
                }));
            }
        }
        assertThat(futures).noneMatch(CompletableFuture::isDone);
        occupier.close();
        CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).get(WAIT_SECONDS, TimeUnit.SECONDS);
        ctx.invokeAsync(() -> { }).get(WAIT_SECONDS, TimeUnit.SECONDS);
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            expected.add(i);
        }
        assertThat(order).as("run order").isEqualTo(expected);
        assertThat(threads).doesNotContain(Thread.currentThread());
    }

    @Test
    void atMostOneCallbackRunsAtATime() throws Exception {
        RendererSyncContext ctx = newContext(pool(2));
        int[] plain = new int[1];
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        Runnable increment = () -> {
            if (inside.incrementAndGet() != 1) {
                overlaps.incrementAndGet();
            }
            plain[0]++;
            inside.decrementAndGet();
        };
        ExecutorService callers = pool(4);
        List<CompletableFuture<Void>> loops = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            loops.add(CompletableFuture.runAsync(() -> {
                for (int i = 0; i < 2000; i++) {
                    if (i % 3 == 0) {
                        ctx.post(increment);
                    } else {
                        ctx.invokeAsync(increment).join();
                    }
                }
            }, callers));
        }
        CompletableFuture.allOf(loops.toArray(CompletableFuture[]::new)).get(WAIT_SECONDS * 3, TimeUnit.SECONDS);
        int total = ctx.invokeAsync(() -> plain[0]).get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(overlaps).as("callbacks that overlapped another").hasValue(0);
        assertThat(total).as("increments (lost updates mean no mutual exclusion)").isEqualTo(8000);
    }

    @Test
    void callerThreadRunsOnlyItsOwnCallbackAndQueuedWorkGoesToTheExecutor() throws Exception {
        ExecutorService drains = pool(1);
        RendererSyncContext ctx = newContext(drains);
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Thread> inlineThread = new AtomicReference<>();
        CompletableFuture<Void> inline = CompletableFuture.runAsync(() -> ctx.invokeAsync(() -> {
            inlineThread.set(Thread.currentThread());
            inside.countDown();
            await(release);
        }), pool(1));
        assertThat(inside.await(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Thread> queued = ctx.invokeAsync(Thread::currentThread);
        release.countDown();
        inline.get(WAIT_SECONDS, TimeUnit.SECONDS);
        // Waited for through a plain future: a thread blocked in the queued call's own get() or join() may run
        // that call itself when its turn comes (RendererSyncContext, "No thread of its own"); this is about
        // where the releasing caller's queued work goes.
        CompletableFuture.allOf(queued).get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(queued.join()).isNotSameAs(inlineThread.get()).isNotSameAs(Thread.currentThread());
    }

    @Test
    void invokeAsyncNeverThrowsAtTheCallerAndFailsItsFuture() {
        RendererSyncContext ctx = newContext(new ManualExecutor());
        IllegalStateException boom = new IllegalStateException("boom");
        CompletableFuture<Void> f = ctx.invokeAsync(() -> {
            throw boom;
        });
        assertThat(f).isCompletedExceptionally();
        assertThatThrownBy(f::join).hasCause(boom);
    }

    @Test
    void cancellationExceptionFromTheCallbackCancelsTheFuture() {
        RendererSyncContext ctx = newContext(new ManualExecutor());
        CompletableFuture<Object> f = ctx.invokeAsync(() -> {
            throw new CancellationException("stop");
        });
        assertThat(f.isCancelled()).as("future cancelled").isTrue();
    }

    @Test
    void postFailureGoesToTheHandlerAndTheQueueGoesOn() {
        ManualExecutor executor = new ManualExecutor();
        List<Throwable> seen = new ArrayList<>();
        RendererSyncContext ctx = newContext("handled", executor, 0, (c, e) -> {
            assertThat(c.checkAccess()).as("handler runs inside the context").isTrue();
            seen.add(e);
            throw new IllegalStateException("a throwing handler must not stall the queue");
        });
        IllegalArgumentException boom = new IllegalArgumentException("boom");
        AtomicInteger after = new AtomicInteger();
        ctx.post(() -> {
            throw boom;
        });
        ctx.post(after::incrementAndGet);
        executor.runUntilIdle();
        assertThat(seen).containsExactly(boom);
        assertThat(after).hasValue(1);
        assertThat(ctx.unhandledExceptionCount()).isEqualTo(1);
    }

    @Test
    void sendRunsInlineWhenIdleAndRethrows() {
        RendererSyncContext ctx = newContext(new ManualExecutor());
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        ctx.send(() -> ranOn.set(Thread.currentThread()));
        assertThat(ranOn.get()).isSameAs(Thread.currentThread());
        assertThatThrownBy(() -> ctx.send(() -> {
            throw new IllegalStateException("from send");
        })).isInstanceOf(IllegalStateException.class).hasMessage("from send");
    }

    @Test
    void sendWaitsForItsFifoTurnThenRunsOnTheCallersThread() throws Exception {
        RendererSyncContext ctx = newContext(pool(1));
        Occupier occupier = Occupier.occupy(ctx);
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        ctx.post(() -> order.add("post-before"));
        AtomicReference<Thread> sendThread = new AtomicReference<>();
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> {
            sendThread.set(Thread.currentThread());
            ctx.send(() -> {
                order.add("send");
                ranOn.set(Thread.currentThread());
            });
        }, pool(1));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (ctx.queueDepth() < 2 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        ctx.post(() -> order.add("post-after"));
        assertThat(sent).isNotDone();
        occupier.close();
        sent.get(WAIT_SECONDS, TimeUnit.SECONDS);
        ctx.invokeAsync(() -> { }).get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(order).containsExactly("post-before", "send", "post-after");
        assertThat(ranOn.get()).isSameAs(sendThread.get());
    }

    @Test
    void checkAccessIsTrueExactlyInsideACallback() throws Exception {
        ManualExecutor executor = new ManualExecutor();
        RendererSyncContext ctx = newContext("access", executor, 0, null);
        assertThat(ctx.checkAccess()).isFalse();
        AtomicReference<Boolean> inlineAccess = new AtomicReference<>();
        AtomicReference<Boolean> queuedAccess = new AtomicReference<>();
        ctx.invokeAsync(() -> inlineAccess.set(ctx.checkAccess())).join();
        ctx.post(() -> queuedAccess.set(ctx.checkAccess()));
        executor.runUntilIdle();
        assertThat(inlineAccess.get()).isTrue();
        assertThat(queuedAccess.get()).isTrue();
        assertThat(ctx.checkAccess()).as("after callbacks ran on this thread").isFalse();
        assertThatThrownBy(ctx::assertAccess).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("access").hasMessageContaining("invokeAsync");
    }

    @Test
    void invokeAsyncStageHoldsTheContextOnlyForItsSynchronousPart() throws Exception {
        RendererSyncContext ctx = newContext(pool(1));
        CompletableFuture<String> gate = new CompletableFuture<>();
        CompletableFuture<String> f = ctx.invokeAsyncStage(() -> gate);
        assertThat(f).isNotDone();
        CompletableFuture<Void> other = ctx.invokeAsync(() -> { });
        assertThat(other).as("context free while the stage is pending").isCompleted();
        AtomicReference<Thread> completedOn = new AtomicReference<>();
        CompletableFuture<Void> observed = f.thenRun(() -> completedOn.set(Thread.currentThread()));
        gate.complete("value");
        assertThat(f.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("value");
        observed.get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(completedOn.get()).as("completes on the thread that completed the stage")
                .isSameAs(Thread.currentThread());
    }

    @Test
    void closeRejectsNewWorkAndLetsQueuedWorkFinish() throws Exception {
        RendererSyncContext ctx = newContext(pool(1));
        Occupier occupier = Occupier.occupy(ctx);
        AtomicInteger ran = new AtomicInteger();
        ctx.post(ran::incrementAndGet);
        ctx.close();
        assertThat(ctx.isClosed()).isTrue();
        assertThatThrownBy(() -> ctx.post(ran::incrementAndGet)).isInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining("contract");
        assertThat(ctx.invokeAsync(() -> { })).isCompletedExceptionally();
        assertThat(ctx.awaitTermination(Duration.ofMillis(50))).as("terminated while occupied").isFalse();
        occupier.close();
        assertThat(ctx.awaitTermination(Duration.ofSeconds(WAIT_SECONDS))).isTrue();
        assertThat(ran).hasValue(1);
    }

    @Test
    void closeNowCancelsPendingFuturesAndReturnsPendingPosts() throws Exception {
        RendererSyncContext ctx = newContext(pool(1));
        Occupier occupier = Occupier.occupy(ctx);
        Runnable post = () -> { };
        ctx.post(post);
        CompletableFuture<Void> pending = ctx.invokeAsync(() -> { });
        CompletableFuture<List<Runnable>> closing = CompletableFuture.supplyAsync(ctx::closeNow, pool(1));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (!ctx.isClosed() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        // The running callback is never interrupted; closeNow may wait for it before aborting the rest.
        occupier.close();
        assertThat(closing.get(WAIT_SECONDS, TimeUnit.SECONDS)).containsExactly(post);
        assertThat(pending.isCancelled()).as("pending future cancelled").isTrue();
        assertThat(ctx.awaitTermination(Duration.ofSeconds(WAIT_SECONDS))).isTrue();
    }

    @Test
    void aFullQueueRejectsWithAMessageNamingTheLimit() throws Exception {
        RendererSyncContext ctx = newContext("bounded", pool(1), 2, null);
        Occupier occupier = Occupier.occupy(ctx);
        ctx.post(() -> { });
        ctx.post(() -> { });
        assertThat(ctx.queueDepth()).isEqualTo(2);
        assertThatThrownBy(() -> ctx.post(() -> { })).isInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining("bounded").hasMessageContaining("2");
        CompletableFuture<Void> refused = ctx.invokeAsync(() -> { });
        assertThatThrownBy(refused::join).hasCauseInstanceOf(RejectedExecutionException.class);
        occupier.close();
    }

    @Test
    void nullArgumentsThrowAtTheCall() {
        RendererSyncContext ctx = newContext(new ManualExecutor());
        assertThatThrownBy(() -> ctx.invokeAsync((Runnable) null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> ctx.post(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> ctx.send(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void everyScenarioPassesOnThisContext() throws Exception {
        // A fixed pool, not the common pool: on JDK 17 with one common-pool worker, every
        // CompletableFuture async hop can take milliseconds, which would make the baseline crawl here.
        ExecutorService drains = pool(2);
        for (Scenario scenario : Scenarios.seed()) {
            RendererSyncContext ctx = newContext(drains);
            scenario.runOnce(ctx);
            scenario.runOnce(ctx);
            ctx.close();
        }
        Scenarios.byName("Contended").runOnce(newContext(drains));
        ManyContexts many = new ManyContexts(200, Duration.ofSeconds(WAIT_SECONDS));
        List<RendererSyncContext> contexts = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            contexts.add(newContext(drains));
        }
        many.runOnce(contexts);
        many.runOnce(contexts);
    }
}
