package dev.synccontext.stress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.testing.NoThreadLeftStuck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The transitions that the Lincheck model checks cover, raced for real: two threads released
 * together, many thousand rounds each, with the outcome of every round checked. This is the proof
 * that also runs on JDKs where Lincheck cannot instrument. Rounds scale with {@code -Dstress.scale}.
 */
// Hang guard only (a deadlocked proof fails instead of stalling the build), never a speed bound.
@Timeout(value = 3, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class TransitionRaceTest {

    private static final int ROUNDS = (int) (20_000 * Double.parseDouble(System.getProperty("stress.scale", "1")));

    @RegisterExtension
    final NoThreadLeftStuck threads = new NoThreadLeftStuck(Duration.ofMinutes(1));

    private final ExecutorService pool = threads.pool(
            Executors.newFixedThreadPool(2, threads.threadFactory(MixedLoad.DRAIN_THREAD_PREFIX + "race-")));

    /** Two callers race for an idle context: neither loses its token to the other, both run once. */
    @Test
    void twoCallersClaimingAnIdleContextNeverShareOrLoseIt() throws Exception {
        race(() -> new Round(RendererSyncContext.builder().executor(pool).build()) {
            CompletableFuture<Void> fa;
            CompletableFuture<Void> fb;

            @Override
            void a() {
                fa = ctx.invokeAsync(probe::enterNestAndLeave);
                probe.outside();
            }

            @Override
            void b() {
                fb = ctx.invokeAsync(probe::enterNestAndLeave);
                probe.outside();
            }

            @Override
            String check() throws Exception {
                fa.get(1, TimeUnit.MINUTES);
                fb.get(1, TimeUnit.MINUTES);
                return probe.verdict(2);
            }
        });
    }

    /** A sender and a poster race on a busy context: the send waits its turn, gets the hand-off, runs once. */
    @Test
    void sendRacingADrainGetsItsTurnExactlyOnce() throws Exception {
        race(() -> new Round(RendererSyncContext.builder().executor(pool).maxBatch(1).build()) {
            final CompletableFuture<Void> last = new CompletableFuture<>();

            {
                ctx.post(probe::enterAndLeave); // a drain is scheduled and may be running when the race starts
            }

            @Override
            void a() {
                ctx.send(probe::enterNestAndLeave);
                probe.outside();
            }

            @Override
            void b() {
                ctx.post(probe::enterAndLeave);
                ctx.post(() -> last.complete(null));
            }

            @Override
            String check() throws Exception {
                last.get(1, TimeUnit.MINUTES);
                return probe.verdict(3);
            }
        });
    }

    /** close() races a submission: the callback either runs or is rejected, and the context terminates. */
    @Test
    void closeRacingASubmissionLosesNothing() throws Exception {
        race(() -> new Round(RendererSyncContext.builder().executor(pool).build()) {
            CompletableFuture<Void> f;
            boolean postRejected;

            @Override
            void a() {
                ctx.close();
            }

            @Override
            void b() {
                f = ctx.invokeAsync(probe::enterAndLeave);
                try {
                    ctx.post(probe::enterAndLeave);
                } catch (RejectedExecutionException closed) {
                    postRejected = true;
                }
            }

            @Override
            String check() throws Exception {
                if (!terminated()) {
                    return "not terminated: " + ctx;
                }
                int expected = (f.isCompletedExceptionally() ? 0 : 1) + (postRejected ? 0 : 1);
                if (f.isCompletedExceptionally() && !postRejected) {
                    return "the post was accepted after invokeAsync was refused by close()";
                }
                return probe.verdict(expected);
            }
        });
    }

    /** closeNow() races a post that scheduled a drain: the post runs or is handed back, exactly once. */
    @Test
    void closeNowRacingAScheduledDrainRunsOrReturnsEveryPost() throws Exception {
        race(() -> new CloseNowRound(RendererSyncContext.builder().executor(pool).build()) {
            final List<Runnable> posted = new ArrayList<>();
            final ConcurrentLinkedQueue<Runnable> ran = new ConcurrentLinkedQueue<>();

            @Override
            void a() {
                for (int i = 0; i < 3; i++) {
                    Runnable post = new Runnable() {
                        @Override
                        public void run() {
                            probe.enterAndLeave();
                            ran.add(this);
                        }
                    };
                    try {
                        ctx.post(post);
                        posted.add(post);
                    } catch (RejectedExecutionException closed) {
                        // refused at the call: the caller knows
                    }
                }
            }

            @Override
            String checkTerminated() {
                for (Runnable p : posted) {
                    int times = (ran.contains(p) ? 1 : 0) + (returned.contains(p) ? 1 : 0);
                    if (times != 1) {
                        return "an accepted post ran " + (ran.contains(p) ? 1 : 0) + " time(s) and was returned "
                                + (returned.contains(p) ? 1 : 0) + " time(s)";
                    }
                }
                return probe.verdict(ran.size());
            }
        });
    }

    /**
     * Two callers each join their call while a drain may own the context (a post was queued first): a call
     * runs inline, on the drain, or on its waiting caller when the owner hands it the turn; never two at
     * once, each exactly once, and neither caller keeps the token after its join returned.
     */
    @Test
    void twoWaitersTakingTurnsNeverShareTheContextAndEachRunsOnce() throws Exception {
        race(() -> new ClosingRound(RendererSyncContext.builder().executor(pool).build(), 4) {

            {
                ctx.post(probe::enterAndLeave);
            }

            @Override
            void a() {
                ctx.invokeAsync(probe::enterNestAndLeave).join();
                probe.outside();
            }

            @Override
            void b() {
                ctx.invokeAsync(probe::enterNestAndLeave).join();
                ctx.invokeAsync(probe::enterAndLeave).join();
                probe.outside();
            }
        });
    }

    /**
     * Two callers on an idle context, each joining its call: one claims it inline, the other queues and
     * joins, and the inline caller's release may hand it its turn; each runs once, never together.
     */
    @Test
    void anInlineCallerHandingItsReleaseToAWaiterNeverSharesTheContext() throws Exception {
        race(() -> new ClosingRound(RendererSyncContext.builder().executor(pool).build(), 2) {

            volatile boolean bQueued;

            @Override
            void a() {
                ctx.invokeAsync(() -> {
                    probe.enterNestAndLeave();
                    lingerFor(() -> bQueued); // so that b is often in its join as this releases
                }).join();
                probe.outside();
            }

            @Override
            void b() {
                CompletableFuture<Void> call = ctx.invokeAsync(probe::enterNestAndLeave);
                bQueued = true;
                call.join();
                probe.outside();
            }
        });
    }

    /**
     * An inline caller releases, maybe handing the context to the other caller's waiting call, and then calls
     * closeNow(), which races that turn: the waiter's call runs once or its future fails, and the context
     * terminates.
     */
    @Test
    void closeNowRightAfterAReleaseThatHandedAWaiterItsTurnRunsTheCallOnceOrFailsIt() throws Exception {
        race(() -> new Round(RendererSyncContext.builder().executor(pool).build()) {
            final ConcurrentLinkedQueue<String> ran = new ConcurrentLinkedQueue<>();
            CompletableFuture<Void> first;
            CompletableFuture<Void> call;
            volatile boolean bQueued;

            @Override
            void a() {
                first = ctx.invokeAsync(() -> {
                    probe.enterAndLeave();
                    lingerFor(() -> bQueued);
                });
                ctx.closeNow();
            }

            @Override
            void b() {
                call = ctx.invokeAsync(() -> {
                    probe.enterAndLeave();
                    ran.add("call");
                });
                bQueued = true;
                joinUnlessClosedNow(call);
            }

            @Override
            String check() throws Exception {
                if (!terminated()) {
                    return "not terminated: " + ctx;
                }
                boolean callRan = ran.contains("call");
                if (!call.isDone() || callRan == call.isCompletedExceptionally()) {
                    return "the call ran " + callRan + ", its future " + call;
                }
                // a's call is the inline one, or queued behind b's (then closeNow() may abort it)
                return probe.verdict(ran.size() + (first.isCompletedExceptionally() ? 0 : 1));
            }
        });
    }

    /**
     * closeNow() races a caller waiting for its queued call (a post ahead of it, so the owner may be about to
     * hand the caller its turn): the call runs once or its future fails, never both, never neither, and the
     * context terminates.
     */
    @Test
    void closeNowRacingAWaitersTurnRunsTheCallOnceOrFailsIt() throws Exception {
        race(() -> new CloseNowRound(RendererSyncContext.builder().executor(pool).build()) {
            final ConcurrentLinkedQueue<String> ran = new ConcurrentLinkedQueue<>();
            CompletableFuture<Void> call;

            {
                ctx.post(() -> {
                    probe.enterAndLeave();
                    ran.add("post");
                });
            }

            @Override
            void a() {
                call = ctx.invokeAsync(() -> {
                    probe.enterAndLeave();
                    ran.add("call");
                });
                joinUnlessClosedNow(call);
            }

            @Override
            String checkTerminated() {
                if (!call.isDone()) {
                    return "the call's future never completed";
                }
                boolean callRan = ran.contains("call");
                if (callRan == call.isCompletedExceptionally()) {
                    return "the call ran " + (callRan ? "and" : "nor") + " its future failed";
                }
                if (ran.contains("post") == (returned.size() == 1)) {
                    return "the post ran " + ran.contains("post") + ", returned " + returned.size();
                }
                return probe.verdict(ran.size());
            }
        });
    }

    /** Joins {@code call}; a closeNow() that came first (aborted in the queue, or refused at the call) is the future's to say. */
    private static void joinUnlessClosedNow(CompletableFuture<?> call) {
        try {
            call.join();
        } catch (java.util.concurrent.CancellationException | java.util.concurrent.CompletionException refused) {
            // checked by the round from the future's state
        }
    }

    /**
     * Inside a callback: waits (bounded, spinning) until {@code other} says the other thread queued its call,
     * then a little more, so that the other thread is often already in its join when this one releases.
     */
    private static void lingerFor(java.util.function.BooleanSupplier other) {
        for (int i = 0; i < 20_000 && !other.getAsBoolean(); i++) {
            Thread.onSpinWait();
        }
        for (int i = 0; i < 50; i++) {
            Thread.onSpinWait();
        }
    }

    /** One round's context, its probe, the two sides and the check. */
    private abstract static class Round {
        final RendererSyncContext ctx;
        final Probe probe;

        Round(RendererSyncContext ctx) {
            this.ctx = ctx;
            this.probe = new Probe(ctx);
        }

        abstract void a();

        abstract void b();

        /** Null when the round is right, else what went wrong. */
        abstract String check() throws Exception;

        /** Whether the context, closed by the round, terminated within a minute. */
        final boolean terminated() throws InterruptedException {
            return ctx.awaitTermination(Duration.ofMinutes(1));
        }

        /** Closes the context; once it terminated, the probe's verdict on {@code expectedRuns} callbacks. */
        final String closedVerdict(int expectedRuns) throws InterruptedException {
            ctx.close();
            return terminated() ? probe.verdict(expectedRuns) : "not terminated: " + ctx;
        }
    }

    /** A round whose side b is closeNow(): the check waits for termination, then asks the subclass. */
    private abstract static class CloseNowRound extends Round {
        /** What closeNow() handed back. */
        List<Runnable> returned = List.of();

        CloseNowRound(RendererSyncContext ctx) {
            super(ctx);
        }

        @Override
        final void b() {
            returned = ctx.closeNow();
        }

        @Override
        final String check() throws Exception {
            return terminated() ? checkTerminated() : "not terminated: " + ctx;
        }

        /** Null when the terminated round is right, else what went wrong. */
        abstract String checkTerminated();
    }

    /** A round whose check closes the context and expects {@code expectedRuns} callbacks once it terminated. */
    private abstract static class ClosingRound extends Round {
        private final int expectedRuns;

        ClosingRound(RendererSyncContext ctx, int expectedRuns) {
            super(ctx);
            this.expectedRuns = expectedRuns;
        }

        @Override
        final String check() throws Exception {
            return closedVerdict(expectedRuns);
        }
    }

    /** Plain state mutated by callbacks: overlap, a lost token or a stale write shows in the verdict. */
    private static final class Probe {
        final RendererSyncContext ctx;
        int inside;
        int runs;
        volatile String violation;

        Probe(RendererSyncContext ctx) {
            this.ctx = ctx;
        }

        void enterAndLeave() {
            if (++inside != 1) {
                violation = "two callbacks overlapped";
            }
            if (!ctx.checkAccess()) {
                violation = "a callback ran without checkAccess()";
            }
            runs++;
            if (!ctx.checkAccess()) {
                violation = "a callback lost checkAccess() while running";
            }
            inside--;
        }

        void enterNestAndLeave() {
            enterAndLeave();
            if (!ctx.invokeAsync(() -> { }).isDone()) {
                violation = "a nested invokeAsync was queued: the caller's token was lost";
            }
        }

        void outside() {
            if (ctx.checkAccess()) {
                violation = "checkAccess() true on " + Thread.currentThread().getName() + " after its call returned";
            }
        }

        String verdict(int expectedRuns) {
            if (violation != null) {
                return violation;
            }
            return runs == expectedRuns ? null : runs + " callbacks ran, expected " + expectedRuns;
        }
    }

    /** Runs {@link #ROUNDS} rounds of a() and b() on two threads released together; fails on the first bad round. */
    private static void race(Supplier<Round> rounds) throws Exception {
        CyclicBarrier start = new CyclicBarrier(3);
        CyclicBarrier end = new CyclicBarrier(3);
        Round[] current = new Round[1];
        AtomicInteger failures = new AtomicInteger();
        List<Thread> racers = new ArrayList<>();
        for (int side = 0; side < 2; side++) {
            int which = side;
            Thread t = new Thread(() -> {
                try {
                    for (int i = 0; i < ROUNDS; i++) {
                        start.await();
                        if (which == 0) {
                            current[0].a();
                        } else {
                            current[0].b();
                        }
                        end.await();
                    }
                } catch (Throwable e) {
                    failures.incrementAndGet();
                    start.reset();
                    end.reset();
                }
            }, "racer-" + side);
            t.setDaemon(true);
            racers.add(t);
            t.start();
        }
        for (int i = 0; i < ROUNDS; i++) {
            current[0] = rounds.get();
            start.await(1, TimeUnit.MINUTES);
            end.await(1, TimeUnit.MINUTES);
            String problem = current[0].check();
            assertThat(problem).as("round %d of %d", i, ROUNDS).isNull();
        }
        for (Thread t : racers) {
            t.join(TimeUnit.MINUTES.toMillis(1));
        }
        assertThat(failures).as("a racer thread failed").hasValue(0);
    }
}
