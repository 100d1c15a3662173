package dev.synccontext.registry;

import dev.synccontext.CallbackOutcome;
import dev.synccontext.CallbackPath;
import dev.synccontext.ContextClock;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.live.LiveChannelGroup;
import dev.synccontext.live.LiveSubscriber;
import dev.synccontext.statistics.SyncContextStatistics;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Drains an application on shutdown, in this order, within one deadline ({@code timeout} after
 * {@link #run} starts, on the registry's {@link ContextClock}):
 * <ol>
 *   <li><b>Refuse traffic</b>: the caller's {@code refusingTraffic} runs first (the starter publishes
 *       readiness {@code REFUSING_TRAFFIC}), before anything else changes.</li>
 *   <li><b>Refuse new work, with its reason</b>: the registry creates no context
 *       ({@link ShuttingDownException}) and every tracked context is closed
 *       ({@link RendererSyncContext#closeForShutdown()}), so each new callback is refused by its context with a
 *       {@link dev.synccontext.ContextShuttingDownException} (a {@code RejectedExecutionException} naming it and
 *       saying why). Both counted.</li>
 *   <li><b>Finish what was accepted</b>: running and queued callbacks finish, then on each context the last
 *       callbacks that parts asked for ({@link SyncContextRegistry#onShutdownDrain}: durable state's final write),
 *       until the callbacks' deadline; a context still busy then is force-closed (pending futures cancelled,
 *       posts dropped: counted by the registry and the statistics; a drain hook's last callback still runs). The callbacks' deadline leaves the going-away its time:
 *       {@code timeout − subscribers / closesPerSecond}, but never less than half the timeout.</li>
 *   <li><b>Go away, paced</b>: every open subscriber of the {@link LiveChannelGroup} gets
 *       {@link LiveSubscriber#goAway()}, at most {@code closesPerSecond} of them per second (the i-th at
 *       {@code i / closesPerSecond} seconds after the first), so that the clients do not reconnect to the
 *       other nodes in one wave. When this thread stalls (a GC pause, a starved CPU), the schedule slips
 *       rather than catching up: never more than 10 ms' worth of closes (plus one) go at once. Those still open at the deadline go away at once, counted as
 *       {@link Report#goneAwayAtDeadline()}.</li>
 * </ol>
 * {@link #run} therefore returns by the deadline (plus one callback's forced close). Context-scoped state
 * is left alone: the registry's {@link SyncContextRegistry#close()} destroys it later, as always. The
 * {@link Report} accounts for every callback submitted meanwhile: ran, refused, or cancelled by a forced
 * close.
 *
 * <p>Meant to run once, on the thread that shuts the application down. Waiting is done with the clock's
 * {@link ContextClock#await}, so a virtual clock runs it without real waits.
 */
public final class ShutdownDrain {

    private static final CompletableFuture<Void> NEVER = new CompletableFuture<>();

    /** How far the going-away may fall behind its schedule and then catch up at once (after a stall). */
    static final long MAX_CATCH_UP_NANOS = 10_000_000L;

    private final SyncContextRegistry registry;
    private final LiveChannelGroup live;
    private final Duration timeout;
    private final double closesPerSecond;
    private final ContextClock clock;

    /**
     * @param timeout the whole drain's bound ({@code synccontext.shutdown-timeout})
     * @param closesPerSecond the going-away pace; 0 or less: all at once
     */
    public ShutdownDrain(SyncContextRegistry registry, LiveChannelGroup live, Duration timeout, double closesPerSecond) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.live = Objects.requireNonNull(live, "live");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("The shutdown drain's timeout must be 0 or positive, not " + timeout);
        }
        this.closesPerSecond = closesPerSecond;
        this.clock = registry.clock();
    }

    /**
     * Runs the drain (see the class comment); {@code refusingTraffic} runs first.
     *
     * @throws InterruptedException interrupted while waiting: contexts not yet done are force-closed and every
     *     subscriber left goes away at once before this is thrown
     */
    public Report run(Runnable refusingTraffic) throws InterruptedException {
        long start = clock.nanoTime();
        long deadline = start + nanos(timeout);
        Tasks before = Tasks.of(registry);
        long refusedCreationsBefore = registry.refusedCreations();
        refusingTraffic.run();

        List<RendererSyncContext> contexts = registry.stopAccepting();
        List<LiveSubscriber> subscribers = live.subscribers();
        long goingAwayNanos = closesPerSecond > 0 ? (long) (subscribers.size() / closesPerSecond * 1e9) : 0;
        long callbacksDeadline = Math.max(start + (deadline - start) / 2, deadline - goingAwayNanos);
        int forced = 0;
        InterruptedException interrupted = null;
        for (RendererSyncContext context : contexts) {
            try {
                Duration left = Duration.ofNanos(Math.max(0, callbacksDeadline - clock.nanoTime()));
                if (interrupted == null && context.awaitTermination(left)) {
                    continue;
                }
            } catch (InterruptedException e) {
                interrupted = e;
            } catch (IllegalStateException calledFromInside) {
                continue; // run from one of its callbacks: that context finishes on its own
            }
            if (registry.forceIfRunning(context)) {
                forced++;
            }
        }
        long callbacksDone = clock.nanoTime();

        int paced = 0;
        int atDeadline = 0;
        double nanosPerClose = closesPerSecond > 0 ? 1e9 / closesPerSecond : 0;
        double nextAt = clock.nanoTime();
        int next = 0;
        while (next < subscribers.size()) {
            long now = clock.nanoTime();
            if (now >= deadline || interrupted != null || nanosPerClose == 0) {
                for (; next < subscribers.size(); next++) {
                    if (nanosPerClose == 0 && now < deadline && interrupted == null) {
                        paced += goAway(subscribers.get(next));
                    } else {
                        atDeadline += goAway(subscribers.get(next));
                    }
                }
                break;
            }
            // After a stall of this thread (a GC, a starved CPU) the schedule slips instead of catching up:
            // never more than MAX_CATCH_UP's worth of closes at once.
            nextAt = Math.max(nextAt, now - MAX_CATCH_UP_NANOS);
            for (; next < subscribers.size() && nextAt <= now; next++) {
                paced += goAway(subscribers.get(next));
                nextAt += nanosPerClose;
            }
            long wait = Math.min((long) Math.ceil(nextAt), deadline) - clock.nanoTime(); // closing took time too
            if (next < subscribers.size() && wait > 0) {
                try {
                    clock.await(NEVER, wait);
                } catch (InterruptedException e) {
                    interrupted = e;
                }
            }
        }
        Tasks after = Tasks.of(registry);
        Report report = new Report(contexts.size(), forced, after.ran - before.ran, after.refused - before.refused,
                after.cancelled - before.cancelled, registry.refusedCreations() - refusedCreationsBefore, paced,
                atDeadline, Duration.ofNanos(callbacksDone - start), Duration.ofNanos(clock.nanoTime() - start));
        if (interrupted != null) {
            throw interrupted;
        }
        return report;
    }

    private static int goAway(LiveSubscriber subscriber) {
        if (!subscriber.isOpen()) {
            return 0; // it ended by itself meanwhile
        }
        subscriber.goAway();
        return 1;
    }

    private static long nanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE / 2;
        }
    }

    /**
     * What a drain did. Callbacks are counted over every scope, from the drain's start to its end: {@code ran}
     * (returned or threw), {@code refused} (never accepted: each caller got its context's
     * {@link dev.synccontext.ContextShuttingDownException}, or a full queue's refusal), {@code cancelled} (accepted, then cancelled or dropped by a forced
     * close); so every callback submitted meanwhile is in exactly one of them.
     *
     * @param contexts contexts the drain closed
     * @param forced of those, force-closed at the callbacks' deadline
     * @param refusedCreations contexts the registry refused to create ({@link ShuttingDownException})
     * @param goneAway subscribers told to go away at the pace (all at once, before the deadline, with pace 0)
     * @param goneAwayAtDeadline subscribers told at once because the deadline came
     * @param callbacks how long running and queued callbacks took to finish (or until forced)
     * @param took the whole drain
     */
    public record Report(int contexts, int forced, long ran, long refused, long cancelled, long refusedCreations,
            int goneAway, int goneAwayAtDeadline, Duration callbacks, Duration took) {

        /** Callbacks submitted during the drain: {@code ran + refused + cancelled}. */
        public long submitted() {
            return ran + refused + cancelled;
        }
    }

    /** Task counts over every scope. */
    private record Tasks(long ran, long refused, long cancelled) {

        static Tasks of(SyncContextRegistry registry) {
            long ran = 0;
            long refused = 0;
            long cancelled = 0;
            for (SyncContextStatistics scope : registry.statistics()) {
                for (CallbackPath path : CallbackPath.values()) {
                    ran += scope.tasks(path, CallbackOutcome.SUCCESS) + scope.tasks(path, CallbackOutcome.FAILURE);
                    refused += scope.tasks(path, CallbackOutcome.REJECTED);
                    cancelled += scope.tasks(path, CallbackOutcome.CANCELLED);
                }
            }
            return new Tasks(ran, refused, cancelled);
        }
    }
}
