package dev.synccontext;

import static dev.synccontext.Catching.catching;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Named.named;

import dev.synccontext.registry.ContextTemplate;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.testing.NoThreadLeftStuck;
import dev.synccontext.testing.ThreadKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The deadlock catalogue (docs/DESIGN.md, "Deadlock detection"): every shape of a blocking wait from
 * inside a context that could never end throws {@link ContextDeadlockException} at once, naming both
 * sides' contexts and sites, on platform threads and (Java 21+) on virtual threads; and the premise:
 * the same cycle through plain futures hangs (shown with a timeout).
 */
class DeadlockCatalogueTest {

    /** How long a shape may take to throw: detection is one walk of the graph, far below this. */
    private static final long PROMPT_MILLIS = 2_000;

    @RegisterExtension
    final NoThreadLeftStuck threads = new NoThreadLeftStuck();

    /** A blocking wait, from inside a context, on {@code target}'s work. */
    private interface Wait {
        Object await(RendererSyncContext target) throws Exception;
    }

    private static final Wait JOIN = target -> target.invokeAsync(() -> "joined").join();
    private static final Wait GET = target -> target.invokeAsync(() -> "got").get();
    private static final Wait TIMED_GET = target -> target.invokeAsync(() -> "got").get(30, TimeUnit.SECONDS);
    private static final Wait SEND = target -> {
        target.send(() -> { });
        return "sent";
    };
    private static final Wait CHAIN = target -> target.invokeAsync(() -> 1).thenApply(x -> x + 1)
            .handle((x, failure) -> x).thenCompose(CompletableFuture::completedFuture).join();

    private Executor executor(ThreadKind kind) {
        return kind.executor(threads, "deadlock-");
    }

    private static RendererSyncContext context(String name, Executor executor) {
        return RendererSyncContext.builder().name(name).executor(executor).build();
    }

    // ---------------------------------------------------------------- one context

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void selfJoinOnTheRunningCallbacksOwnFutureThrows(ThreadKind kind) throws Exception {
        Throwable thrown = selfJoinThrown(context("self", executor(kind)), RendererSyncContext::invokeAsync);
        assertSelfDeadlock(thrown, "self");
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void selfJoinFromTheSynchronousPartOfAnAsyncCallbackThrows(ThreadKind kind) throws Exception {
        Throwable thrown = selfJoinThrown(context("self-stage", executor(kind)),
                (a, callback) -> a.invokeAsyncStage(() -> CompletableFuture.completedFuture(callback.call())));
        assertSelfDeadlock(thrown, "self-stage");
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aWaitOnTheStageAnAsyncCallbackReturnedIsNoCycleThoughItsContextWaitsOnTheWaiter(ThreadKind kind)
            throws Exception {
        Executor executor = executor(kind);
        RendererSyncContext a = context("A", executor);
        RendererSyncContext b = context("B", executor);
        CompletableFuture<String> gate = new CompletableFuture<>();
        CompletableFuture<String> stage;
        try (Occupier occupier = Occupier.occupy(b)) {
            stage = b.invokeAsyncStage(() -> gate); // queued; its synchronous part returns the pending gate
        }
        assertThat(b.invokeAsync(() -> "b ran the stage's part").get(10, TimeUnit.SECONDS)).isNotNull();
        CountDownLatch aHolds = new CountDownLatch(1);
        CountDownLatch bWaits = new CountDownLatch(1);
        AtomicReference<Thread> aThread = new AtomicReference<>();
        CompletableFuture<Object> aSide = new CompletableFuture<>();
        a.post(() -> {
            aThread.set(Thread.currentThread());
            aHolds.countDown();
            Occupier.awaitUninterruptibly(bWaits);
            try {
                aSide.complete(stage.join()); // waits on the gate, which no context runs
            } catch (Throwable t) {
                aSide.complete(t);
            }
        });
        Occupier.awaitUninterruptibly(aHolds);
        AtomicReference<Thread> bThread = new AtomicReference<>();
        CompletableFuture<Throwable> bSide = new CompletableFuture<>();
        b.post(() -> {
            bThread.set(Thread.currentThread());
            bSide.complete(catching(() -> JOIN.await(a))); // b waits on a, which waits on the gate
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> bThread.get() != null && WaitGraph.isWaiting(bThread.get()));
        bWaits.countDown();
        // a blocks on the gate (no edge: no context runs the gate), and does not throw.
        await().atMost(Duration.ofSeconds(10)).until(() -> aThread.get().getState() == Thread.State.WAITING);
        assertThat(aSide).as("a's wait on the returned stage: no deadlock, it waits").isNotDone();
        assertThat(WaitGraph.isWaiting(aThread.get())).as("an edge for a wait no context can end").isFalse();
        gate.complete("opened");
        assertThat(aSide.get(10, TimeUnit.SECONDS)).isEqualTo("opened");
        assertThat(bSide.get(10, TimeUnit.SECONDS)).isNull();
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void joinOnWorkQueuedBehindTheCallerThrows(ThreadKind kind) throws Exception {
        RendererSyncContext a = context("behind", executor(kind));
        AtomicReference<CompletableFuture<String>> behind = new AtomicReference<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        CompletableFuture<Void> outer;
        try (Occupier occupier = Occupier.occupy(a)) {
            outer = a.invokeAsync(() -> thrown.set(catching(() -> behind.get().join())));
            behind.set(a.invokeAsync(() -> "ran after"));
        }
        outer.get(10, TimeUnit.SECONDS);
        assertSelfDeadlock(thrown.get(), "behind");
        assertThat(behind.get().get(10, TimeUnit.SECONDS)).isEqualTo("ran after");
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void thenApplyAsyncOnTheCallersOwnContextThrows(ThreadKind kind) throws Exception {
        Executor executor = executor(kind);
        RendererSyncContext a = context("async-own", executor);
        RendererSyncContext b = context("source", executor);
        CompletableFuture<Integer> done;
        try (Occupier occupier = Occupier.occupy(b)) {
            done = b.invokeAsync(() -> 1); // a queued future of b, so its derived futures are tracked
        }
        done.get(10, TimeUnit.SECONDS);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        CompletableFuture<Void> outer = new CompletableFuture<>();
        a.post(() -> {
            thrown.set(catching(() -> done.thenApplyAsync(x -> x + 1, a).join()));
            outer.complete(null);
        });
        outer.get(10, TimeUnit.SECONDS);
        assertSelfDeadlock(thrown.get(), "async-own");
    }

    // ---------------------------------------------------------------- across contexts

    /**
     * Each way of waiting across two contexts, on platform and virtual threads: the first wait, then the
     * other's. A get, timed or not, throws at once, not at its timeout; a send's callback may send back.
     */
    static Stream<Arguments> cyclesOfTwo() {
        List<Arguments> cases = new ArrayList<>();
        for (ThreadKind kind : ThreadKind.values()) {
            cases.add(Arguments.of(kind, named("join", JOIN), named("join", JOIN)));
            cases.add(Arguments.of(kind, named("get", GET), named("join", JOIN)));
            cases.add(Arguments.of(kind, named("timed get", TIMED_GET), named("get", GET)));
            cases.add(Arguments.of(kind, named("send", SEND), named("send", SEND)));
            cases.add(Arguments.of(kind, named("future chain", CHAIN), named("join", JOIN)));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}: {1}, then {2}")
    @MethodSource("cyclesOfTwo")
    void aWaitAcrossTwoContextsThatWaitOnEachOtherThrows(ThreadKind kind, Wait firstWait, Wait othersWait)
            throws Exception {
        Executor executor = executor(kind);
        assertCycle(kind, List.of(context("A", executor), context("B", executor)), firstWait, othersWait);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void aCycleThroughThreeContextsThrowsNamingEverySide(ThreadKind kind) throws Exception {
        Executor executor = executor(kind);
        ContextDeadlockException e = assertCycle(kind,
                List.of(context("A", executor), context("B", executor), context("C", executor)), JOIN, JOIN);
        assertThat(e.sides()).extracting(ContextDeadlockException.Side::holds).containsExactly("A", "B", "C");
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void thenApplyAsyncAcrossContextsThrows(ThreadKind kind) throws Exception {
        Executor executor = executor(kind);
        RendererSyncContext c = context("C", executor);
        Wait throughAsync = target -> target.invokeAsync(() -> 1).thenApplyAsync(x -> x + 1, c).join();
        assertCycle(kind, List.of(context("A", executor), context("B", executor)), throughAsync, JOIN);
    }

    @ParameterizedTest
    @EnumSource(ThreadKind.class)
    void anHttpSessionContextAndAStompSessionContextOfOneRegistryThrow(ThreadKind kind) throws Exception {
        ContextTemplate template = ContextTemplate.defaults(executor(kind), "test");
        try (SyncContextRegistry registry = new SyncContextRegistry(template)) {
            RendererSyncContext http = registry.forKey("http-session-1");
            RendererSyncContext stomp = registry.create("stomp");
            ContextDeadlockException e = assertCycle(kind, List.of(http, stomp), JOIN, SEND);
            assertThat(e.getMessage()).contains("'" + http.name() + "'").contains("'" + stomp.name() + "'");
        }
    }

    // ---------------------------------------------------------------- the premise

    @Test
    void withoutTheMechanismACycleThroughPlainFuturesHangsUntilItsTimeout() throws Exception {
        Executor executor = executor(ThreadKind.PLATFORM);
        RendererSyncContext a = context("A", executor);
        RendererSyncContext b = context("B", executor);
        CountDownLatch aHeld = new CountDownLatch(1);
        CountDownLatch bWaiting = new CountDownLatch(1);
        CompletableFuture<String> ranOnA = new CompletableFuture<>();
        CompletableFuture<String> ranOnB = new CompletableFuture<>();
        CompletableFuture<Throwable> aSide = new CompletableFuture<>();
        CompletableFuture<Throwable> bSide = new CompletableFuture<>();
        a.post(() -> {
            aHeld.countDown();
            Occupier.awaitUninterruptibly(bWaiting);
            b.post(() -> ranOnB.complete("b"));
            aSide.complete(catching(() -> ranOnB.get(300, TimeUnit.MILLISECONDS)));
        });
        Occupier.awaitUninterruptibly(aHeld);
        b.post(() -> {
            a.post(() -> ranOnA.complete("a")); // queued behind a's callback, which waits on b
            bWaiting.countDown();
            bSide.complete(catching(() -> ranOnA.get(10, TimeUnit.SECONDS)));
        });
        assertThat(aSide.get(10, TimeUnit.SECONDS)).as("a's wait on a plain future of b")
                .isInstanceOf(TimeoutException.class);
        // Only a's timeout broke the cycle: then a's queue ran, b's wait ended, and b's queue ran.
        assertThat(bSide.get(20, TimeUnit.SECONDS)).as("b's wait, once a gave up").isNull();
        assertThat(ranOnB.get(10, TimeUnit.SECONDS)).isEqualTo("b");
    }

    // ---------------------------------------------------------------- the harness

    /**
     * Closes a cycle over {@code ring}: a callback of {@code ring[0]} holds it; then, from the last
     * context back to the second, a callback of {@code ring[i]} waits ({@code othersWait}) on
     * {@code ring[i + 1]} (on {@code ring[0]} for the last), each recorded before the next is posted;
     * last, the first callback waits ({@code firstWait}) on {@code ring[1]}. That wait closes the cycle:
     * it must throw at once, naming every side; the others then go on.
     */
    private ContextDeadlockException assertCycle(ThreadKind kind, List<RendererSyncContext> ring, Wait firstWait,
            Wait othersWait) throws Exception {
        int n = ring.size();
        CountDownLatch firstHolds = new CountDownLatch(1);
        CountDownLatch othersWaiting = new CountDownLatch(1);
        CompletableFuture<Throwable> firstThrew = new CompletableFuture<>();
        AtomicReference<Long> tookNanos = new AtomicReference<>();
        AtomicReference<Thread> firstThread = new AtomicReference<>();
        ring.get(0).post(() -> {
            firstThread.set(Thread.currentThread());
            firstHolds.countDown();
            Occupier.awaitUninterruptibly(othersWaiting);
            long start = System.nanoTime();
            Throwable t = catching(() -> firstWait.await(ring.get(1)));
            tookNanos.set(System.nanoTime() - start);
            firstThrew.complete(t);
        });
        Occupier.awaitUninterruptibly(firstHolds);
        List<CompletableFuture<Throwable>> others = new ArrayList<>();
        for (int i = n - 1; i >= 1; i--) {
            RendererSyncContext holds = ring.get(i);
            RendererSyncContext target = ring.get((i + 1) % n);
            AtomicReference<Thread> waiter = new AtomicReference<>();
            CompletableFuture<Throwable> outcome = new CompletableFuture<>();
            holds.post(() -> {
                waiter.set(Thread.currentThread());
                outcome.complete(catching(() -> othersWait.await(target)));
            });
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> waiter.get() != null && WaitGraph.isWaiting(waiter.get()));
            others.add(outcome);
        }
        othersWaiting.countDown();

        Throwable thrown = firstThrew.get(10, TimeUnit.SECONDS);
        assertThat(thrown).as("the wait that closes the cycle").isInstanceOf(ContextDeadlockException.class)
                .isInstanceOf(IllegalStateException.class);
        assertThat(TimeUnit.NANOSECONDS.toMillis(tookNanos.get())).as("ms until it threw")
                .isLessThan(PROMPT_MILLIS);
        for (CompletableFuture<Throwable> other : others) {
            assertThat(other.get(10, TimeUnit.SECONDS)).as("the other sides go on once the cycle is broken")
                    .isNull();
        }
        ContextDeadlockException e = (ContextDeadlockException) thrown;
        assertThat(e.sides()).hasSize(n);
        for (int i = 0; i < n; i++) {
            ContextDeadlockException.Side side = e.sides().get(i);
            assertThat(side.holds()).isEqualTo(ring.get(i).name());
            assertThat(side.waitsOn()).isEqualTo(ring.get((i + 1) % n).name());
            assertThat(side.site()).as("site of side %s", i).isNotNull();
            assertThat(side.site().getClassName()).startsWith(DeadlockCatalogueTest.class.getName());
            assertThat(e.getMessage()).contains("'" + side.holds() + "'").contains(side.site().toString());
            assertThat(side.virtualThread()).isEqualTo(kind == ThreadKind.VIRTUAL);
            assertThat(side.stack()).isNotEmpty();
        }
        String firstName = firstThread.get().getName();
        if (firstName.isEmpty()) { // an unnamed virtual thread is named by its toString()
            assertThat(e.waiter().threadName()).startsWith("VirtualThread[");
        } else {
            assertThat(e.waiter().threadName()).isEqualTo(firstName);
        }
        assertThat(e.getMessage()).startsWith("Deadlock: ");
        System.out.printf("[%s, %d ms] %s%n", kind, TimeUnit.NANOSECONDS.toMillis(tookNanos.get()), e.getMessage());
        return e;
    }

    /** How a test queues a callback: as a call, or as the synchronous part of an asynchronous one. */
    private interface Queue {
        CompletableFuture<String> queue(RendererSyncContext context, Callable<String> callback);
    }

    /**
     * Queues on {@code a}, behind an occupier and through {@code queue}, a callback that joins its own future;
     * what that join threw, once the callback returned.
     */
    private static Throwable selfJoinThrown(RendererSyncContext a, Queue queue) throws Exception {
        AtomicReference<CompletableFuture<String>> self = new AtomicReference<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        CompletableFuture<String> f;
        try (Occupier occupier = Occupier.occupy(a)) {
            f = queue.queue(a, () -> {
                thrown.set(catching(() -> self.get().join()));
                return "threw";
            });
            self.set(f);
        }
        assertThat(f.get(10, TimeUnit.SECONDS)).isEqualTo("threw");
        return thrown.get();
    }

    private static void assertSelfDeadlock(Throwable thrown, String context) {
        assertThat(thrown).isInstanceOf(ContextDeadlockException.class).hasMessageContaining("Deadlock")
                .hasMessageContaining("'" + context + "'");
        ContextDeadlockException e = (ContextDeadlockException) thrown;
        assertThat(e.sides()).singleElement().satisfies(side -> {
            assertThat(side.holds()).isEqualTo(context);
            assertThat(side.waitsOn()).isEqualTo(context);
            assertThat(side.site()).isNotNull();
            assertThat(side.site().getClassName()).startsWith(DeadlockCatalogueTest.class.getName());
        });
        assertThat(e.other()).isSameAs(e.waiter());
        assertThat(e.getMessage()).contains(e.waiter().site().toString());
    }
}
