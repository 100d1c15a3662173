package dev.synccontext.reactor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.registry.ContextProxy;
import dev.synccontext.testing.CountingDecorator;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

class ContextSchedulerTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final List<RendererSyncContext> contexts = new ArrayList<>();

    @AfterEach
    void closeContexts() {
        contexts.forEach(RendererSyncContext::close);
    }

    private RendererSyncContext context(String name) {
        return context(RendererSyncContext.builder().name(name));
    }

    /** A context named {@code name} whose unhandled-exception handler completes {@code handled}. */
    private RendererSyncContext context(String name, CompletableFuture<Throwable> handled) {
        return context(RendererSyncContext.builder().name(name)
                .unhandledExceptionHandler((context, failure) -> handled.complete(failure)));
    }

    private RendererSyncContext context(RendererSyncContext.Builder builder) {
        RendererSyncContext context = builder.build();
        contexts.add(context);
        return context;
    }

    private static Optional<RendererSyncContext> current() {
        return RendererSyncContext.current();
    }

    /** Holds the context busy until released, so that what is scheduled meanwhile has to queue. */
    private static CountDownLatch occupy(RendererSyncContext context) throws InterruptedException {
        return hold(context);
    }

    /** Runs on {@code executor} a task that returns once the returned latch is released; returns once it runs. */
    private static CountDownLatch hold(Executor executor) throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(1);
        executor.execute(() -> {
            running.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
        return release;
    }

    /** Returns once everything queued on the context before this call has run. */
    private static void drained(RendererSyncContext context) {
        context.invokeAsync(() -> { }).orTimeout(10, TimeUnit.SECONDS).join();
    }

    @Test
    void publishOnRunsEveryLaterStageOnTheContext() {
        RendererSyncContext ctx = context("publish-on");
        Scheduler scheduler = ContextScheduler.of(ctx);
        List<String> seen = Flux.range(1, 50)
                .publishOn(scheduler)
                .map(i -> "first stage " + current().filter(c -> c == ctx).isPresent())
                .publishOn(Schedulers.boundedElastic())
                .map(s -> s + ", off " + current().isEmpty())
                .publishOn(scheduler)
                .map(s -> s + ", back " + current().filter(c -> c == ctx).isPresent())
                .collectList()
                .block(TIMEOUT);
        assertThat(seen).hasSize(50).containsOnly("first stage true, off true, back true");
    }

    @Test
    void subscribeOnSubscribesOnTheContext() {
        RendererSyncContext ctx = context("subscribe-on");
        Optional<RendererSyncContext> seen = Mono.fromCallable(RendererSyncContext::current)
                .subscribeOn(ContextScheduler.of(ctx))
                .block(TIMEOUT);
        assertThat(seen).containsSame(ctx);
    }

    @Test
    void manyConcurrentPipelinesOnOneContextKeepAPlainCounterExact() {
        RendererSyncContext ctx = context("pipelines");
        SharedCounter shared = new SharedCounter();
        int pipelines = 64;
        int elements = 500;
        int posts = 5_000;
        Scheduler scheduler = ContextScheduler.of(ctx);
        Thread poster = new Thread(() -> {
            for (int i = 0; i < posts; i++) {
                ctx.post(() -> shared.increment(ctx.checkAccess()));
            }
        });
        poster.start();
        Flux.range(0, pipelines)
                .flatMap(p -> Flux.range(0, elements)
                        .subscribeOn(Schedulers.parallel())
                        .publishOn(scheduler)
                        .doOnNext(i -> shared.increment(current().filter(c -> c == ctx).isPresent())), pipelines)
                .blockLast(TIMEOUT);
        join(poster);
        drained(ctx);
        assertThat(shared.offContext).describedAs("increments that ran off the context").hasValue(0);
        assertThat(shared.overlaps).describedAs("increments that overlapped another callback").hasValue(0);
        assertThat(shared.count).describedAs("the plain counter").isEqualTo(pipelines * elements + posts);
    }

    /** The premise: on Reactor's parallel scheduler the same stages run off the context (lost updates printed). */
    @Test
    void premiseOnTheParallelSchedulerTheSameStagesRunOffTheContext() {
        RendererSyncContext ctx = context("premise");
        SharedCounter shared = new SharedCounter();
        Flux.range(0, 64)
                .flatMap(p -> Flux.range(0, 500)
                        .subscribeOn(Schedulers.parallel())
                        .publishOn(Schedulers.parallel())
                        .doOnNext(i -> shared.increment(current().filter(c -> c == ctx).isPresent())), 64)
                .blockLast(TIMEOUT);
        System.out.println("premise on Schedulers.parallel(): counter " + shared.count + " of 32000, "
                + shared.overlaps.get() + " overlaps");
        assertThat(shared.offContext).hasValue(64 * 500);
    }

    private static void join(Thread thread) {
        try {
            thread.join(TIMEOUT.toMillis());
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        assertThat(thread.isAlive()).isFalse();
    }

    /** A plain counter with a read-modify-write window, and detectors for overlap and wrong context. */
    private static final class SharedCounter {
        int count;
        final AtomicInteger overlaps = new AtomicInteger();
        final AtomicInteger offContext = new AtomicInteger();
        private final AtomicBoolean inside = new AtomicBoolean();

        void increment(boolean onContext) {
            if (!onContext) {
                offContext.incrementAndGet();
            }
            if (!inside.compareAndSet(false, true)) {
                overlaps.incrementAndGet();
            }
            int read = count;
            for (int i = 0; i < 20; i++) {
                Thread.onSpinWait();
            }
            count = read + 1;
            inside.set(false);
        }
    }

    @Test
    void aTaskScheduledFromOnTheContextRunsAtOnce() {
        RendererSyncContext ctx = context("at-once");
        ContextScheduler scheduler = ContextScheduler.of(ctx);
        Scheduler.Worker worker = scheduler.createWorker();
        List<String> order = ctx.invokeAsync(() -> {
            List<String> seen = new ArrayList<>();
            scheduler.schedule(() -> seen.add("scheduler task"));
            worker.schedule(() -> seen.add("worker task"));
            seen.add("after both schedule calls");
            return seen;
        }).join();
        assertThat(order).containsExactly("scheduler task", "worker task", "after both schedule calls");
    }

    @Test
    void aPublishOnWhoseUpstreamEmitsOnTheContextAddsNoHop() {
        CountingDecorator queued = new CountingDecorator();
        RendererSyncContext ctx = RendererSyncContext.builder().name("no-hop").queuedCallbackDecorator(queued).build();
        contexts.add(ctx);
        List<Integer> received = ctx.invokeAsync(() -> {
            List<Integer> list = new ArrayList<>();
            Flux.range(1, 100).publishOn(ContextScheduler.of(ctx)).subscribe(list::add);
            return new ArrayList<>(list); // what arrived before the callback returned
        }).join();
        assertThat(received).describedAs("elements delivered inside the emitting callback").hasSize(100);
        assertThat(queued.decorated()).describedAs("callbacks queued on the context").isZero();
    }

    @Test
    void aTaskScheduledFromOffTheContextIsPostedNotRunOnTheCaller() throws Exception {
        RendererSyncContext ctx = context("posted");
        CompletableFuture<Thread> ranOn = new CompletableFuture<>();
        AtomicReference<Optional<RendererSyncContext>> seen = new AtomicReference<>();
        ContextScheduler.of(ctx).createWorker().schedule(() -> {
            seen.set(current());
            ranOn.complete(Thread.currentThread());
        });
        assertThat(ranOn.get(10, TimeUnit.SECONDS)).isNotSameAs(Thread.currentThread());
        assertThat(seen.get()).containsSame(ctx);
    }

    @Test
    void aWorkerRunsItsTasksInOrderAndNeverLetsAnOnContextTaskOvertakeAPendingOne() throws Exception {
        RendererSyncContext ctx = context("fifo");
        Scheduler.Worker worker = ContextScheduler.of(ctx).createWorker();
        ConcurrentLinkedQueue<String> order = new ConcurrentLinkedQueue<>();
        CountDownLatch release = occupy(ctx);
        for (int i = 0; i < 1_000; i++) {
            String name = "task " + i;
            worker.schedule(() -> {
                order.add(name);
                if (name.equals("task 0")) {
                    // From inside the worker's own task: queued behind it, never run nested.
                    worker.schedule(() -> order.add("scheduled by task 0"));
                    order.add("task 0 done");
                }
            });
        }
        // On the context, but the worker has a task pending ("scheduled by task 0"): it must queue behind it.
        ctx.post(() -> worker.schedule(() -> order.add("scheduled by a callback")));
        release.countDown();
        drained(ctx);
        drained(ctx);
        List<String> expected = new ArrayList<>();
        expected.add("task 0");
        expected.add("task 0 done");
        for (int i = 1; i < 1_000; i++) {
            expected.add("task " + i);
        }
        expected.add("scheduled by task 0");
        expected.add("scheduled by a callback");
        assertThat(order).containsExactlyElementsOf(expected);
    }

    @Test
    void disposingAQueuedTaskKeepsItFromRunning() throws Exception {
        RendererSyncContext ctx = context("dispose-queued");
        AtomicBoolean ran = new AtomicBoolean();
        CountDownLatch release = occupy(ctx);
        Disposable task = ContextScheduler.of(ctx).schedule(() -> ran.set(true));
        Disposable workerTask = ContextScheduler.of(ctx).createWorker().schedule(() -> ran.set(true));
        task.dispose();
        workerTask.dispose();
        release.countDown();
        drained(ctx);
        assertThat(ran).isFalse();
        assertThat(task.isDisposed()).isTrue();
        assertThat(workerTask.isDisposed()).isTrue();
    }

    @Test
    void disposingAWorkerDisposesItsPendingTasksAndRejectsNewOnes() throws Exception {
        RendererSyncContext ctx = context("dispose-worker");
        Scheduler.Worker worker = ContextScheduler.of(ctx).createWorker();
        AtomicInteger ran = new AtomicInteger();
        CountDownLatch release = occupy(ctx);
        for (int i = 0; i < 10; i++) {
            worker.schedule(ran::incrementAndGet);
        }
        worker.schedule(ran::incrementAndGet, 10, TimeUnit.MILLISECONDS);
        worker.dispose();
        release.countDown();
        drained(ctx);
        assertThat(ran).hasValue(0);
        assertThatThrownBy(() -> worker.schedule(ran::incrementAndGet))
                .isInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining("'dispose-worker'");
    }

    @Test
    void aDelayedTaskRunsOnTheContextWhenDue() {
        RendererSyncContext ctx = context("delay");
        long start = System.nanoTime();
        Optional<RendererSyncContext> seen = Mono.delay(Duration.ofMillis(50), ContextScheduler.of(ctx))
                .map(tick -> current())
                .block(TIMEOUT);
        assertThat(seen).containsSame(ctx);
        assertThat(System.nanoTime() - start).describedAs("not before it was due").isGreaterThanOrEqualTo(50_000_000L);
    }

    /**
     * Holds the one timer thread until released, so that what falls due meanwhile is handed over only
     * after the test has done what it must do first, however slow the machine.
     */
    private static CountDownLatch holdTimer() throws InterruptedException {
        return hold(ContextTimer.shared());
    }

    /** Returns once the timer has handed over every wait that was due by now. */
    private static void timerPassed() throws Exception {
        ContextTimer.shared().schedule(() -> { }, 1, TimeUnit.MILLISECONDS).get(10, TimeUnit.SECONDS);
    }

    @Test
    void disposingADelayedTaskBeforeItIsDueKeepsItFromRunning() throws Exception {
        RendererSyncContext ctx = context("dispose-delayed");
        ContextScheduler scheduler = ContextScheduler.of(ctx);
        AtomicBoolean ran = new AtomicBoolean();
        CountDownLatch releaseTimer = holdTimer();
        Disposable delayed = scheduler.schedule(() -> ran.set(true), 1, TimeUnit.MILLISECONDS);
        Disposable onWorker = scheduler.createWorker().schedule(() -> ran.set(true), 1, TimeUnit.MILLISECONDS);
        delayed.dispose();
        onWorker.dispose();
        releaseTimer.countDown();
        timerPassed();
        drained(ctx);
        assertThat(ran).describedAs("a disposed delayed task ran").isFalse();
        assertThat(delayed.isDisposed()).isTrue();
        assertThat(onWorker.isDisposed()).isTrue();
    }

    @Test
    void disposingADelayedTaskThatIsQueuedAlreadyKeepsItFromRunning() throws Exception {
        RendererSyncContext ctx = context("dispose-delayed-queued");
        ContextScheduler scheduler = ContextScheduler.of(ctx);
        AtomicBoolean ran = new AtomicBoolean();
        CountDownLatch releaseContext = occupy(ctx);
        Disposable delayed = scheduler.schedule(() -> ran.set(true), 1, TimeUnit.MILLISECONDS);
        Disposable onWorker = scheduler.createWorker().schedule(() -> ran.set(true), 1, TimeUnit.MILLISECONDS);
        timerPassed(); // both are queued on the context now, behind the occupier
        delayed.dispose();
        onWorker.dispose();
        releaseContext.countDown();
        drained(ctx);
        assertThat(ran).describedAs("a disposed delayed task ran").isFalse();
    }

    @Test
    void aPeriodicTaskRunsOnTheContextWithoutOverlapUntilDisposed() {
        RendererSyncContext ctx = context("periodic");
        AtomicBoolean inside = new AtomicBoolean();
        AtomicInteger overlaps = new AtomicInteger();
        List<Boolean> onContext = Flux.interval(Duration.ofMillis(2), ContextScheduler.of(ctx))
                .take(20)
                .map(tick -> {
                    if (!inside.compareAndSet(false, true)) {
                        overlaps.incrementAndGet();
                    }
                    boolean on = current().filter(c -> c == ctx).isPresent();
                    inside.set(false);
                    return on;
                })
                .collectList()
                .block(TIMEOUT);
        assertThat(onContext).hasSize(20).containsOnly(true);
        assertThat(overlaps).hasValue(0);
    }

    @Test
    void aPeriodicTaskThatThrowsEndsItsPeriodAndReachesTheContextsHandler() throws Exception {
        CompletableFuture<Throwable> handled = new CompletableFuture<>();
        RendererSyncContext ctx = context("periodic-throws", handled);
        AtomicInteger runs = new AtomicInteger();
        Disposable periodic = ContextScheduler.of(ctx).schedulePeriodically(() -> {
            runs.incrementAndGet();
            throw new IllegalStateException("tick failed");
        }, 0, 1, TimeUnit.MILLISECONDS);
        assertThat(handled.get(10, TimeUnit.SECONDS)).hasMessage("tick failed");
        assertThat(periodic.isDisposed()).isTrue();
        timerPassed();
        drained(ctx);
        assertThat(runs).hasValue(1);
    }

    @Test
    void aClosedContextIsAnErrorSignalNotAHang() {
        RendererSyncContext ctx = context("closed");
        ContextScheduler scheduler = ContextScheduler.of(ctx);
        ctx.close();
        assertThatThrownBy(() -> Flux.just(1, 2).publishOn(scheduler).blockLast(TIMEOUT))
                .isInstanceOf(RejectedExecutionException.class)
                .hasStackTraceContaining("'closed'");
        assertThatThrownBy(() -> Mono.just(1).subscribeOn(scheduler).block(TIMEOUT))
                .isInstanceOf(RejectedExecutionException.class)
                .hasStackTraceContaining("'closed'");
        assertThatThrownBy(() -> Mono.delay(Duration.ofMillis(10), scheduler).block(TIMEOUT))
                .isInstanceOf(RejectedExecutionException.class)
                .hasStackTraceContaining("'closed'");
    }

    @Test
    void aDelayFallingDueAfterTheContextClosedGoesToOnErrorDropped() throws Exception {
        RendererSyncContext ctx = context("closed-while-waiting");
        CompletableFuture<Throwable> dropped = new CompletableFuture<>();
        Hooks.onErrorDropped(dropped::complete);
        try {
            CountDownLatch releaseTimer = holdTimer();
            ContextScheduler.of(ctx).schedule(() -> { }, 1, TimeUnit.MILLISECONDS);
            ctx.close();
            releaseTimer.countDown();
            assertThat(dropped.get(10, TimeUnit.SECONDS))
                    .isInstanceOf(RejectedExecutionException.class)
                    .hasMessageContaining("'closed-while-waiting'")
                    .hasMessageContaining("fell due when the context refused it");
        } finally {
            Hooks.resetOnErrorDropped();
        }
    }

    @Test
    void aWorkersDelayedTaskStillRunsAfterTheSchedulerIsDisposed() throws Exception {
        RendererSyncContext ctx = context("disposed-before-due");
        ContextScheduler scheduler = ContextScheduler.of(ctx);
        CompletableFuture<Optional<RendererSyncContext>> ran = new CompletableFuture<>();
        CountDownLatch releaseTimer = holdTimer();
        scheduler.createWorker().schedule(() -> ran.complete(current()), 1, TimeUnit.MILLISECONDS);
        scheduler.dispose();
        releaseTimer.countDown();
        assertThat(ran.get(10, TimeUnit.SECONDS)).containsSame(ctx);
    }

    @Test
    void aDisposedSchedulerRejectsNewTasksAndLeavesTheContextOpen() {
        RendererSyncContext ctx = context("disposed-scheduler");
        ContextScheduler scheduler = ContextScheduler.of(ctx);
        scheduler.dispose();
        assertThat(scheduler.isDisposed()).isTrue();
        assertThatThrownBy(() -> scheduler.schedule(() -> { }))
                .isInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining("'disposed-scheduler'");
        assertThatThrownBy(scheduler::createWorker).isInstanceOf(RejectedExecutionException.class);
        assertThat(ctx.isClosed()).isFalse();
    }

    @Test
    void aContextProxyIsResolvedOnceWhenTheSchedulerIsMade() {
        RendererSyncContext ctx = context("behind-a-proxy");
        ContextProxy proxy = (ContextProxy) Proxy.newProxyInstance(ContextProxy.class.getClassLoader(),
                new Class<?>[] {ContextProxy.class}, (self, method, args) -> {
                    if (method.getName().equals("target")) {
                        return ctx;
                    }
                    throw new AssertionError("the proxy resolves on every call; " + method.getName() + " was called on it");
                });
        ContextScheduler scheduler = ContextScheduler.of(proxy);
        assertThat(scheduler.context()).isSameAs(ctx);
        assertThat(Mono.fromCallable(RendererSyncContext::current).subscribeOn(scheduler).block(TIMEOUT)).containsSame(ctx);
    }

    @Test
    void aQueuedTaskThatThrowsGoesToTheContextsUnhandledExceptionHandler() throws Exception {
        CompletableFuture<Throwable> handled = new CompletableFuture<>();
        RendererSyncContext ctx = context("throwing", handled);
        ContextScheduler.of(ctx).createWorker().schedule(() -> {
            throw new IllegalStateException("task failed");
        });
        assertThat(handled.get(10, TimeUnit.SECONDS)).hasMessage("task failed");
    }
}
