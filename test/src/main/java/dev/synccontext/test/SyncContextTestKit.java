package dev.synccontext.test;

import dev.synccontext.CallbackDecorator;
import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * One test's deterministic world: a {@link DeterministicExecutor} every context of the test drains on, a
 * {@link VirtualClock} every context, timer and timeout of the test reads, and the bookkeeping that
 * fails the test when it leaves work behind.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Nothing happens by itself.</b> Queued callbacks run in {@link #runUntilIdle()} and the
 *       advance methods, on the calling thread; time moves only in {@link #advanceBy} and
 *       {@link #advanceUntilIdle()} (and in a virtual {@code awaitTermination}, which moves it to the
 *       deadline instead of sleeping). A test that waits out a 30-second timeout takes microseconds.</li>
 *   <li><b>Reproducible order.</b> FIFO by default; {@link #exploring(long)} runs ready drains and
 *       {@link #spawn spawned} producer steps in an order chosen by the seed (the {@link Explorer}'s).</li>
 *   <li><b>Nothing left behind unseen.</b> {@link #verify()} fails when callbacks are still queued, or a
 *       failure reached a context's unhandled-exception handler (a post that threw) or a virtual timer
 *       and the test never {@link #takeFailures() took} it, naming where each was submitted. A failure
 *       of {@code invokeAsync*} goes into the future the caller holds and is the caller's to observe.</li>
 *   <li><b>One per test.</b> No static state: tests in parallel each use their own kit.</li>
 * </ul>
 * Contexts use the kit when built by {@link #contextBuilder()} (or, in a Spring Boot test, through
 * {@code @AutoConfigureSyncContextTest}). Thread-safe; meant to be driven by one thread.
 */
public final class SyncContextTestKit {

    private final @Nullable Long seed;
    private final DeterministicExecutor executor;
    private final CallbackTracker tracker = new CallbackTracker();
    private final VirtualClock clock;

    private SyncContextTestKit(@Nullable Long seed) {
        this.seed = seed;
        this.executor = seed == null ? new DeterministicExecutor() : new DeterministicExecutor(seed);
        this.clock = new VirtualClock(executor, tracker);
    }

    /** A kit whose executor runs queued work in FIFO order. */
    public static SyncContextTestKit create() {
        return new SyncContextTestKit(null);
    }

    /**
     * A kit whose executor runs queued work in an order chosen by {@code seed}, and whose contexts yield
     * after every callback ({@code maxBatch} 1), so contexts and producers interleave at callback
     * granularity. The same seed gives the same order.
     */
    public static SyncContextTestKit exploring(long seed) {
        return new SyncContextTestKit(seed);
    }

    /** The seed of an exploring kit; empty for a FIFO one. */
    public OptionalLong seed() {
        return seed == null ? OptionalLong.empty() : OptionalLong.of(seed);
    }

    /** The executor the kit's contexts drain on; also usable as the "backend" pool of the code under test. */
    public DeterministicExecutor executor() {
        return executor;
    }

    /** The kit's virtual clock. */
    public VirtualClock clock() {
        return clock;
    }

    /** The decorator that records each queued callback's submit site (already set by {@link #contextBuilder()}). */
    public CallbackDecorator decorator() {
        return tracker;
    }

    /** The handler that records unhandled callback failures (already set by {@link #contextBuilder()}). */
    public BiConsumer<RendererSyncContext, Throwable> unhandledExceptionHandler() {
        return tracker;
    }

    /** A builder of contexts on the kit: its executor, clock, decorator and handler (and batch 1 when exploring). */
    public RendererSyncContext.Builder contextBuilder() {
        RendererSyncContext.Builder builder = RendererSyncContext.builder()
                .executor(executor)
                .clock(clock)
                .queuedCallbackDecorator(tracker)
                .unhandledExceptionHandler(tracker);
        if (seed != null) {
            builder.maxBatch(1);
        }
        return builder;
    }

    /** A new context on the kit named {@code name}. */
    public RendererSyncContext newContext(String name) {
        return contextBuilder().name(name).build();
    }

    /**
     * A producer: outside code (a request thread, a backend callback) whose steps run one after another
     * as tasks of the kit's executor, so the explorer interleaves them with the drains. Step {@code k+1}
     * is queued when step {@code k} has returned.
     */
    public void spawn(Runnable... steps) {
        Objects.requireNonNull(steps, "steps");
        for (Runnable step : steps) {
            Objects.requireNonNull(step, "step");
        }
        if (steps.length > 0) {
            executor.execute(new Producer(steps, 0));
        }
    }

    /** Runs queued work until none is left (time stands still). Returns how many tasks ran. */
    public int runUntilIdle() {
        return executor.runUntilIdle();
    }

    /** Moves virtual time forward by {@code duration}, firing the timers due meanwhile; see {@link VirtualClock#advanceBy}. */
    public void advanceBy(Duration duration) {
        clock.advanceBy(duration);
    }

    /** Runs queued work and due timers, moving time, until neither is left; see {@link VirtualClock#advanceUntilIdle}. */
    public void advanceUntilIdle() {
        clock.advanceUntilIdle();
    }

    /** Virtual time since the kit was made. */
    public Duration currentTime() {
        return clock.currentTime();
    }

    /**
     * Runs queued work until {@code future} completes, waiting up to {@code realTimeout} of real time
     * for work that other threads (a web server's) are yet to submit. Time stands still.
     *
     * @return {@code future}, done
     * @throws AssertionError if it is not done by then
     */
    public <F extends CompletableFuture<?>> F runUntilDone(F future, Duration realTimeout) {
        long deadline = System.nanoTime() + realTimeout.toNanos();
        while (!future.isDone()) {
            if (executor.runUntilIdle() == 0) {
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("Not done after " + realTimeout + " of real time with the kit idle"
                            + " at virtual " + currentTime() + ": the future waits for something that never"
                            + " came (a timer: advance time; a thread outside the kit)");
                }
                Thread.onSpinWait();
                Thread.yield();
            }
        }
        return future;
    }

    /** The failures no one has observed yet (see {@link #verify()}); they count as observed from now on. */
    public List<Throwable> takeFailures() {
        return tracker.takeFailures();
    }

    /**
     * Fails when queued callbacks were left behind or failures were never observed, naming where each
     * was submitted. The JUnit extension calls it after each test.
     *
     * @throws AssertionError describing every leak
     */
    public void verify() {
        StringBuilder message = new StringBuilder();
        int leaked = executor.pending();
        if (leaked > 0) {
            List<SubmitSite> callbacks = tracker.queuedSites();
            List<SubmitSite> sites = callbacks.isEmpty() ? executor.pendingSubmitSites() : callbacks;
            message.append(callbacks.isEmpty() ? leaked + " task(s)" : callbacks.size() + " callback(s)")
                    .append(" still queued at the end of the test (virtual time ").append(currentTime())
                    .append("); run them (runUntilIdle(), advanceBy(...)) or close their context with closeNow():");
            for (int i = 0; i < sites.size(); i++) {
                message.append("\n  ").append(i + 1).append(". ");
                sites.get(i).appendTo(message, "     ");
            }
        }
        List<CallbackTracker.Failure> failures = tracker.unobserved();
        if (!failures.isEmpty()) {
            if (message.length() > 0) {
                message.append('\n');
            }
            message.append(failures.size()).append(" failure(s) nobody observed (take them with takeFailures()"
                    + " to assert on them):");
            for (int i = 0; i < failures.size(); i++) {
                CallbackTracker.Failure f = failures.get(i);
                message.append("\n  ").append(i + 1).append(". ").append(f.where()).append(" threw ")
                        .append(f.failure()).append("; its callback was\n     ");
                f.site().appendTo(message, "     ");
            }
        }
        if (message.length() > 0) {
            if (seed != null) {
                message.append("\n(interleaving seed ").append(seed).append(")");
            }
            AssertionError error = new AssertionError(message.toString());
            failures.forEach(f -> error.addSuppressed(f.failure()));
            throw error;
        }
    }

    @Override
    public String toString() {
        return "SyncContextTestKit[" + (seed == null ? "fifo" : "seed " + seed) + ", " + currentTime() + ", "
                + executor.pending() + " queued]";
    }

    /** One producer step; queues the next when it returns. */
    private final class Producer implements Runnable {

        private final Runnable[] steps;
        private final int index;

        Producer(Runnable[] steps, int index) {
            this.steps = steps;
            this.index = index;
        }

        @Override
        public void run() {
            steps[index].run();
            if (index + 1 < steps.length) {
                executor.execute(new Producer(steps, index + 1));
            }
        }
    }
}
