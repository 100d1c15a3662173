package dev.synccontext.reactor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.ContextDeadlockException;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.testing.NoThreadLeftStuck;
import dev.synccontext.testing.ThreadKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The deadlock catalogue through Reactor's {@code block()} (docs/DESIGN.md, "Deadlock detection"): a
 * callback that blocks on a pipeline whose signal can only come through a context it holds, directly or
 * through another context that waits on it, throws {@link ContextDeadlockException} out of
 * {@code block()} at once, naming every side's context and site, on platform threads and (Java 21+) on
 * virtual threads; a mixed cycle of a {@code block()} and a {@code join()} throws too; pipelines that
 * only wait on contexts that do not wait back raise nothing; and the premise: the same A→B→A without
 * the hook hangs until the timeouts give up.
 */
class BlockDeadlockCatalogueTest {

    /** Far above the time a shape takes to throw (one walk of the graph when the task is queued). */
    private static final long PROMPT_MILLIS = 2_000;
    private static final Duration DELAY = Duration.ofMillis(5);

    @RegisterExtension
    final NoThreadLeftStuck threads = new NoThreadLeftStuck();

    @AfterEach
    void reinstallTheHook() {
        BlockingWaits.install(); // the premise test removes it
    }

    private ExecutorService executor(ThreadKind kind) {
        return kind.executor(threads, "block-deadlock-");
    }

    private static RendererSyncContext context(String name, ExecutorService executor) {
        return RendererSyncContext.builder().name(name).executor(executor).build();
    }

    /** Runs {@code body} as a posted callback of {@code context} (on its executor's thread); what it threw. */
    private static CompletableFuture<Throwable> onContext(RendererSyncContext context, Callable<?> body) {
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        context.post(() -> {
            try {
                Object value = body.call();
                outcome.completeExceptionally(new AssertionError("returned " + value + " instead of throwing"));
            } catch (Throwable thrown) {
                outcome.complete(thrown);
            }
        });
        return outcome;
    }

    private static ContextDeadlockException deadlock(CompletableFuture<Throwable> outcome) throws Exception {
        Throwable thrown = outcome.get(PROMPT_MILLIS, TimeUnit.MILLISECONDS);
        assertThat(thrown).isInstanceOf(ContextDeadlockException.class);
        return (ContextDeadlockException) thrown;
    }

    private static void assertSelf(ContextDeadlockException deadlock, String context, boolean virtual) {
        assertThat(deadlock.sides()).hasSize(1);
        ContextDeadlockException.Side side = deadlock.waiter();
        assertThat(side.holds()).isEqualTo(context);
        assertThat(side.waitsOn()).isEqualTo(context);
        assertThat(side.virtualThread()).isEqualTo(virtual);
        assertSiteIsThisTest(side);
        assertThat(deadlock).hasMessageContaining("'" + context + "'");
    }

    private static void assertBothSides(ContextDeadlockException deadlock, String waiterHolds, String otherHolds,
            boolean virtual) {
        assertThat(deadlock.sides()).hasSize(2);
        assertThat(deadlock.waiter().holds()).isEqualTo(waiterHolds);
        assertThat(deadlock.waiter().waitsOn()).isEqualTo(otherHolds);
        assertThat(deadlock.other().holds()).isEqualTo(otherHolds);
        assertThat(deadlock.other().waitsOn()).isEqualTo(waiterHolds);
        for (ContextDeadlockException.Side side : deadlock.sides()) {
            assertThat(side.virtualThread()).isEqualTo(virtual);
            assertSiteIsThisTest(side);
        }
        assertThat(deadlock).hasMessageContaining("'" + waiterHolds + "'").hasMessageContaining("'" + otherHolds + "'");
    }

    /** The site is the test's own line that blocks: Reactor's and the library's frames are skipped. */
    private static void assertSiteIsThisTest(ContextDeadlockException.Side side) {
        assertThat(side.site()).as("site of %s", side.threadName()).isNotNull();
        assertThat(side.site().getClassName()).startsWith(BlockDeadlockCatalogueTest.class.getName());
    }

    // ---------------------------------------------------------------- one context

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void blockOnAPublishOnOfTheCallersOwnContextThrows(ThreadKind kind) throws Exception {
        RendererSyncContext a = context("A", executor(kind));
        // Mono.delay emits on Reactor's parallel scheduler, after the subscription: publishOn queues the
        // signal on A, behind the callback that blocks on it.
        CompletableFuture<Throwable> outcome = onContext(a,
                () -> Mono.delay(DELAY).publishOn(ContextScheduler.of(a)).block());
        assertSelf(deadlock(outcome), "A", kind == ThreadKind.VIRTUAL);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void blockOnAFromFuturePublishedOnTheCallersOwnContextThrows(ThreadKind kind) throws Exception {
        RendererSyncContext a = context("A", executor(kind));
        CompletableFuture<Integer> later = new CompletableFuture<>();
        CompletableFuture<Thread> blocker = new CompletableFuture<>();
        CompletableFuture<Throwable> outcome = onContext(a, () -> {
            blocker.complete(Thread.currentThread());
            return Mono.fromFuture(later).publishOn(ContextScheduler.of(a)).block();
        });
        awaitParked(blocker.get(10, TimeUnit.SECONDS));
        later.complete(1); // on this thread, outside A: the signal is queued on A
        assertSelf(deadlock(outcome), "A", kind == ThreadKind.VIRTUAL);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void blockOnADelayOnTheCallersOwnContextThrows(ThreadKind kind) throws Exception {
        RendererSyncContext a = context("A", executor(kind));
        CompletableFuture<Throwable> outcome = onContext(a, () -> Mono.delay(DELAY, ContextScheduler.of(a)).block());
        assertSelf(deadlock(outcome), "A", kind == ThreadKind.VIRTUAL);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void blockOnAFromFutureOfAStagePostedToTheCallersOwnContextThrowsAtTheSubscription(ThreadKind kind)
            throws Exception {
        ExecutorService executor = executor(kind);
        RendererSyncContext a = context("A", executor);
        RendererSyncContext b = context("B", executor);
        CountDownLatch releaseB = new CountDownLatch(1);
        b.post(() -> awaitUninterruptibly(releaseB));
        CompletableFuture<Integer> fromB = b.invokeAsync(() -> 1); // queued: a future B handed out
        releaseB.countDown();
        assertThat(fromB.get(10, TimeUnit.SECONDS)).isOne();
        // The stage is posted to A behind the callback that blocks on it: the future needs A from the start.
        CompletableFuture<Throwable> outcome = onContext(a,
                () -> Mono.fromFuture(fromB.thenApplyAsync(x -> x + 1, a)).block());
        assertSelf(deadlock(outcome), "A", kind == ThreadKind.VIRTUAL);
    }

    // ---------------------------------------------------------------- two contexts

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aToBToAThroughBlockOnBothSidesThrowsOnBoth(ThreadKind kind) throws Exception {
        ExecutorService executor = executor(kind);
        RendererSyncContext a = context("A", executor);
        RendererSyncContext b = context("B", executor);
        CompletableFuture<Throwable> bSide = new CompletableFuture<>();
        CompletableFuture<Throwable> outcome = onContext(a, () -> Mono.fromCallable(() -> {
            try {
                // On B, which A's callback waits on: block on a signal queued on A.
                return Mono.delay(DELAY).publishOn(ContextScheduler.of(a)).block();
            } catch (Throwable thrown) {
                bSide.complete(thrown);
                throw thrown;
            }
        }).subscribeOn(ContextScheduler.of(b)).block());
        Throwable onB = bSide.get(PROMPT_MILLIS, TimeUnit.MILLISECONDS);
        assertThat(onB).isInstanceOf(ContextDeadlockException.class);
        assertBothSides((ContextDeadlockException) onB, "B", "A", kind == ThreadKind.VIRTUAL);
        assertThat(deadlock(outcome)).as("A's block() gets it too, through its pipeline").isSameAs(onB);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aBlocksOnBWhoseCallbackJoinsWorkQueuedOnAThrowsInTheJoin(ThreadKind kind) throws Exception {
        ExecutorService executor = executor(kind);
        RendererSyncContext a = context("A", executor);
        RendererSyncContext b = context("B", executor);
        CompletableFuture<Throwable> outcome = onContext(a,
                () -> Mono.fromCallable(() -> a.invokeAsync(() -> "queued behind A's callback").join())
                        .subscribeOn(ContextScheduler.of(b)).block());
        ContextDeadlockException deadlock = deadlock(outcome);
        assertBothSides(deadlock, "B", "A", kind == ThreadKind.VIRTUAL);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aBlocksOnAFutureOfBWhoseCallbackJoinsWorkQueuedOnAThrowsInTheJoin(ThreadKind kind) throws Exception {
        ExecutorService executor = executor(kind);
        RendererSyncContext a = context("A", executor);
        RendererSyncContext b = context("B", executor);
        CountDownLatch releaseB = new CountDownLatch(1);
        b.post(() -> awaitUninterruptibly(releaseB)); // B is busy: A's call to it queues
        CompletableFuture<Throwable> bSide = new CompletableFuture<>();
        CompletableFuture<Thread> blocker = new CompletableFuture<>();
        CompletableFuture<Throwable> outcome = onContext(a, () -> {
            blocker.complete(Thread.currentThread());
            return Mono.fromFuture(b.invokeAsync(() -> {
                try {
                    return a.invokeAsync(() -> "queued behind A's callback").join();
                } catch (Throwable thrown) {
                    bSide.complete(thrown);
                    throw thrown;
                }
            })).block();
        });
        awaitParked(blocker.get(10, TimeUnit.SECONDS));
        releaseB.countDown();
        Throwable onB = bSide.get(PROMPT_MILLIS, TimeUnit.MILLISECONDS);
        assertThat(onB).isInstanceOf(ContextDeadlockException.class);
        assertBothSides((ContextDeadlockException) onB, "B", "A", kind == ThreadKind.VIRTUAL);
        assertThat(deadlock(outcome)).isSameAs(onB);
    }

    // ---------------------------------------------------------------- no false positive, and the premise

    /**
     * 4,000 blocks from callbacks of four contexts, each only on a later context (so no cycle can form),
     * through publishOn, subscribeOn and fromFuture, from four threads at once: none throws.
     */
    @Test
    void blocksOnlyOnContextsThatNeverWaitBackRaiseNothing() throws Exception {
        ExecutorService executor = executor(ThreadKind.PLATFORM);
        List<RendererSyncContext> contexts = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            contexts.add(context("ordered-" + i, executor));
        }
        AtomicInteger done = new AtomicInteger();
        List<CompletableFuture<Throwable>> outcomes = new ArrayList<>();
        ExecutorService callers = threads.fixedPool(4, "caller-");
        for (int caller = 0; caller < 4; caller++) {
            outcomes.add(CompletableFuture.supplyAsync(() -> {
                try {
                    for (int op = 0; op < 1_000; op++) {
                        int from = ThreadLocalRandom.current().nextInt(3);
                        int to = from + 1 + ThreadLocalRandom.current().nextInt(3 - from);
                        RendererSyncContext target = contexts.get(to);
                        int shape = op % 3;
                        Integer got = contexts.get(from).invokeAsync(() -> switch (shape) {
                            case 0 -> Mono.just(1).publishOn(ContextScheduler.of(target)).block();
                            case 1 -> Mono.fromCallable(() -> 1).subscribeOn(ContextScheduler.of(target)).block();
                            default -> Mono.fromFuture(target.invokeAsync(() -> 1)).block();
                        }).get(10, TimeUnit.SECONDS);
                        assertThat(got).isOne();
                        done.incrementAndGet();
                    }
                    return null;
                } catch (Throwable failed) {
                    return failed;
                }
            }, callers));
        }
        for (CompletableFuture<Throwable> outcome : outcomes) {
            assertThat(outcome.get(60, TimeUnit.SECONDS)).isNull();
        }
        assertThat(done).hasValue(4_000);
    }

    /** Without the hook, the same A→B→A holds both contexts until both timeouts give up. */
    @Test
    void premiseWithoutTheHookTheSameCycleHangsUntilTheTimeoutsGiveUp() throws Exception {
        Hooks.resetOnLastOperator(BlockingWaits.HOOK_KEY);
        ExecutorService executor = executor(ThreadKind.PLATFORM);
        RendererSyncContext a = context("A", executor);
        RendererSyncContext b = context("B", executor);
        CompletableFuture<Throwable> outcome = onContext(a, () -> Mono.fromCallable(
                () -> Mono.delay(DELAY).publishOn(ContextScheduler.of(a)).block(Duration.ofMillis(300)))
                .subscribeOn(ContextScheduler.of(b)).block(Duration.ofMillis(600)));
        Throwable thrown = outcome.get(10, TimeUnit.SECONDS);
        assertThat(thrown).isNotInstanceOf(ContextDeadlockException.class).hasMessageContaining("Timeout");
    }

    @Test
    void aBlockOutsideAnyContextIsNotWatched() {
        assertThat(Mono.delay(DELAY).publishOn(Schedulers.parallel()).block()).isZero();
        assertThat(BlockWatch.LIVE).hasValue(0);
    }

    /** Waits until {@code thread} is parked in {@code block()}, up to 10 s. */
    private static void awaitParked(Thread thread) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (thread.getState() != Thread.State.WAITING || Arrays.stream(thread.getStackTrace())
                .noneMatch(frame -> frame.getMethodName().equals("blockingGet"))) {
            assertThat(System.nanoTime() - deadline).as("%s parked", thread).isNegative();
            Thread.sleep(1); // polling a thread state: nothing else to wait on
        }
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
