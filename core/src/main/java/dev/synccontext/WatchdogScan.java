package dev.synccontext;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.Future;
import org.jspecify.annotations.Nullable;

/**
 * The watchdog's scans of the callbacks of the contexts on one {@link ContextClock}: which callback
 * each thread runs, since when (on that clock), and whether it was reported.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Never early, at most one tick late.</b> A callback is first seen by the first scan after it
 *       started (its start is taken to be that scan's time, so a report never comes before the
 *       threshold), and it is reported by a scan at that time plus its context's threshold: each scan
 *       asks for the next one at the earliest such deadline, or at the next tick, whichever is first.
 *       So a callback is reported between {@code threshold} and {@code threshold + tick} after it
 *       started (plus the lateness of the thread that runs the scan). A report that waited for the
 *       tick after its deadline, as the scans did before, would come up to two ticks late when the
 *       threshold is not a multiple of the tick.</li>
 *   <li><b>Ticks on the clock's grid.</b> Regular scans fall on multiples of the tick on the clock's
 *       time axis (a quarter of the smallest threshold noted on this clock, 5-250 ms), so a test on a
 *       virtual clock knows them: a callback that starts at a multiple of the tick is reported at
 *       exactly its start plus the threshold.</li>
 *   <li><b>One scanner per clock.</b> Each clock's scans keep their own state, so scans of different
 *       clocks (the watchdog thread for {@link ContextClock#system()}, a test's thread for a virtual
 *       clock) never race on one another's view of a thread, even of a thread that runs contexts of both.
 *       Scans of one clock run one at a time; {@link #blockedNow} may read from any thread.</li>
 * </ul>
 * Scans of the system clock run on the watchdog's own thread ({@link Watchdog}); those of any other
 * clock are set on the clock itself with {@link ContextClock#scheduleBackground}, so under a virtual
 * clock the scans, and the reports, happen inside the calls that move its time, at exact instants.
 */
final class WatchdogScan {

    private static final System.Logger LOG = System.getLogger(RendererSyncContext.class.getName());

    final ContextClock clock;
    private volatile long tickNanos = Watchdog.MAX_TICK_NANOS;

    /** What this clock's scans saw of each thread in a callback of one of its contexts. */
    @GuardedBy("this")
    private final Map<CallbackFrame, Sighting> seen = new WeakHashMap<>();

    // The pending scan, when this clock's scans are set on the clock itself.
    @GuardedBy("this")
    private @Nullable Future<?> pending;
    @GuardedBy("this")
    private long pendingAt = Long.MAX_VALUE;
    @GuardedBy("this")
    private boolean failed;

    WatchdogScan(ContextClock clock) {
        this.clock = clock;
    }

    /** One callback as seen by this clock's scans. */
    private static final class Sighting {
        final SyncContext context;
        final int seq;
        long sinceNanos;
        boolean reported;

        Sighting(SyncContext context, int seq, long sinceNanos) {
            this.context = context;
            this.seq = seq;
            this.sinceNanos = sinceNanos;
        }
    }

    long tickNanos() {
        return tickNanos;
    }

    /** A context on this clock has this threshold: tick often enough. Returns whether the tick got shorter. */
    boolean noteThreshold(long thresholdNanos) {
        long wanted = Math.max(Watchdog.MIN_TICK_NANOS, Math.min(Watchdog.MAX_TICK_NANOS, thresholdNanos / 4));
        synchronized (this) {
            if (wanted < tickNanos) {
                tickNanos = wanted;
                return true;
            }
            return false;
        }
    }

    /** The first multiple of the tick after {@code nanos}. */
    long nextTickAfter(long nanos) {
        long tick = tickNanos;
        return saturatedAdd(nanos - Math.floorMod(nanos, tick), tick);
    }

    /**
     * Looks at every thread's frame; reports the callbacks of this clock's contexts that have run past
     * their threshold (once each); returns the clock time at which the next scan is wanted.
     */
    long scan(Iterable<WeakReference<CallbackFrame>> frames) {
        List<Report> due = new ArrayList<>(0);
        long next = Long.MAX_VALUE;
        synchronized (this) {
            for (Iterator<WeakReference<CallbackFrame>> it = frames.iterator(); it.hasNext();) {
                CallbackFrame frame = it.next().get();
                if (frame == null) {
                    it.remove();
                    continue;
                }
                SyncContext ctx = frame.context;
                int seq = frame.seq;
                if (ctx == null || ctx.settings.clock != clock || ctx.settings.blockedThresholdNanos == 0) {
                    // Forget idle threads' contexts: a pool thread must not keep a closed session's
                    // context reachable until it happens to run another callback.
                    if (!seen.isEmpty()) {
                        seen.remove(frame);
                    }
                    continue;
                }
                long now = clock.nanoTime();
                Sighting s = seen.get(frame);
                if (s == null || s.context != ctx || s.seq != seq) {
                    s = new Sighting(ctx, seq, now); // it started after the last scan: never report early
                    seen.put(frame, s);
                }
                if (s.reported) {
                    continue;
                }
                long threshold = ctx.settings.blockedThresholdNanos;
                long running = now - s.sinceNanos;
                if (running < threshold) {
                    next = Math.min(next, saturatedAdd(s.sinceNanos, threshold));
                    continue;
                }
                BlockedCallback blocked = describe(frame, ctx, seq, running);
                // The stack was taken after the check: report only if the same callback still runs.
                if (frame.context == ctx && frame.seq == seq) {
                    s.reported = true;
                    due.add(new Report(ctx, blocked));
                }
            }
        }
        for (Report report : due) { // outside the lock: an observer may call blockedCallbacks()
            report.context.countBlocked();
            WatchdogReport.deliver(report.context, report.blocked);
        }
        return Math.min(next, nextTickAfter(clock.nanoTime()));
    }

    private record Report(SyncContext context, BlockedCallback blocked) {
    }

    /** The JVM was held for {@code heldNanos}: that time counts as running time for no callback. */
    synchronized void forgive(long heldNanos) {
        for (Sighting s : seen.values()) {
            s.sinceNanos += heldNanos;
        }
    }

    /** The callbacks of this clock's contexts over their threshold right now, as of the last scan. */
    List<BlockedCallback> blockedNow() {
        List<BlockedCallback> blocked = new ArrayList<>();
        synchronized (this) {
            for (Map.Entry<CallbackFrame, Sighting> entry : seen.entrySet()) {
                CallbackFrame frame = entry.getKey();
                Sighting s = entry.getValue();
                if (frame.context != s.context || frame.seq != s.seq) {
                    continue;
                }
                long running = clock.nanoTime() - s.sinceNanos;
                if (running >= s.context.settings.blockedThresholdNanos) {
                    blocked.add(describe(frame, s.context, s.seq, running));
                }
            }
        }
        return blocked;
    }

    // Scans set on the clock itself (every clock but the system one).

    /** Makes sure a scan is set on the clock for {@code at} (its time) or earlier. */
    void scheduleBy(long at) {
        synchronized (this) {
            if (failed || (pending != null && pendingAt <= at)) {
                return;
            }
            if (pending != null) {
                pending.cancel(false);
            }
            pendingAt = at;
            try {
                pending = clock.scheduleBackground(this::scheduledScan,
                        Duration.ofNanos(Math.max(0, at - clock.nanoTime())));
            } catch (RuntimeException refused) {
                failed = true;
                pending = null;
                LOG.log(System.Logger.Level.ERROR, "The clock " + clock + " refused the watchdog's scan; callbacks"
                        + " of contexts on it are no longer watched", refused);
            }
        }
    }

    private void scheduledScan() {
        synchronized (this) {
            pending = null;
            pendingAt = Long.MAX_VALUE;
        }
        long next;
        try {
            next = scan(Watchdog.frames());
        } catch (Throwable unexpected) {
            LOG.log(System.Logger.Level.ERROR, "synccontext watchdog failed one scan of " + clock
                    + "; it keeps scanning", unexpected);
            next = nextTickAfter(clock.nanoTime());
        }
        scheduleBy(next);
    }

    @SuppressWarnings("deprecation") // Thread.getId(): threadId() needs Java 19.
    private static BlockedCallback describe(CallbackFrame frame, SyncContext ctx, int seq, long runningNanos) {
        Thread owner = frame.thread;
        // Read the sampled extras before the stack: if they are for this callback now, they still are
        // when the caller checks (after the stack) that the same callback runs.
        Throwable submitSite = frame.diagnosedSeq == seq ? frame.submitSite : null;
        long queuedNanos = frame.diagnosedSeq == seq ? frame.queuedForNanos : -1;
        List<StackTraceElement> stack = Arrays.asList(owner.getStackTrace());
        Duration queuedFor = queuedNanos >= 0 ? Duration.ofNanos(queuedNanos)
                : CallSites.ranOnCaller(stack) ? Duration.ZERO : null;
        String name = owner.getName();
        return new BlockedCallback(ctx.name(), ctx, name.isEmpty() ? owner.toString() : name, owner.getId(),
                Duration.ofNanos(runningNanos), stack, ctx.settings.scope, CallSites.callbackFrame(stack),
                ThreadKinds.isVirtual(owner), queuedFor, submitSite == null ? List.of() : SubmitSites.frames(submitSite));
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? (b > 0 ? Long.MAX_VALUE : Long.MIN_VALUE) : sum;
    }
}
