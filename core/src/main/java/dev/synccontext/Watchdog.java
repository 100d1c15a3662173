package dev.synccontext;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * Finds callbacks that run longer than their context's blocked threshold, without the hot path
 * reading a clock.
 *
 * <p>Every thread that enters a callback registers its {@link CallbackFrame} here once. Scans look at
 * each frame: a frame whose callback sequence number has not moved since an earlier scan has been
 * running the same callback at least since that scan. Each {@link ContextClock} has its own scans
 * ({@link WatchdogScan}: when they come, how a callback's start is estimated, why a report is never early
 * and at most one tick late); a callback is watched by the scans of its context's clock:
 * <ul>
 *   <li><b>{@link ContextClock#system()}</b>: one daemon thread for the whole JVM
 *       ({@code synccontext-watchdog}), started when the first thread enters a callback; it inherits
 *       nothing from that thread ({@link LibraryThreads}), so it pins no application. It wakes at
 *       the next tick or at the earliest report deadline, whichever is first. The tick adapts to the
 *       smallest threshold in use on this clock (a quarter of it, between 5 ms and 250 ms), so the
 *       default 2 s threshold costs four wake-ups a second.</li>
 *   <li><b>Any other clock</b> (a test kit's virtual clock): the scans are timers on that clock, set with
 *       {@link ContextClock#scheduleBackground}, from the first context with a threshold built on it.
 *       Under a virtual clock they run inside the calls that move its time, so a report comes at an
 *       exact virtual instant, on the thread that moved time, and never depends on real time.</li>
 * </ul>
 *
 * <p><b>Quiet while the JVM is held.</b> A wake-up of the watchdog thread that comes much later than
 * asked for (more than {@link #PAUSE_NANOS}: a debugger suspended the JVM at a breakpoint, or a very
 * long safepoint) reports nothing, and the time it was held is not counted as running time: every
 * callback being watched on the system clock is timed again from the end of the pause, as if it had
 * started then. (A virtual clock's time does not move while the JVM is held.) A debugger that suspends
 * only the callback's own thread does not stop the watchdog, which then reports that callback as
 * blocked.
 *
 * <p>What a report says and where it goes (log line, observer, Flight Recorder) is
 * {@link WatchdogReport}'s.
 *
 * <p>Frames are held weakly: a thread that dies takes its frame with it. A callback of an outer
 * context that keeps calling nested callbacks looks busy-but-moving and is reported late; that is
 * the price of not reading a clock per callback.
 */
final class Watchdog {

    static final long MIN_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    static final long MAX_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    /** A wake-up this much later than asked for means the JVM (or this thread) was held: see above. */
    static final long PAUSE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private static final System.Logger LOG = System.getLogger(RendererSyncContext.class.getName());
    private static final ConcurrentLinkedQueue<WeakReference<CallbackFrame>> FRAMES =
            new ConcurrentLinkedQueue<>();
    private static final WatchdogScan SYSTEM = new WatchdogScan(ContextClock.system());
    /**
     * The scans of the other clocks, weakly both ways: a clock's pending scan (a timer on it) holds its
     * scans, so both go when the clock goes.
     */
    @GuardedBy("Watchdog.class")
    private static final Map<ContextClock, WeakReference<WatchdogScan>> OTHERS = new WeakHashMap<>();
    private static @Nullable Thread thread;

    private Watchdog() {
    }

    /** A context with this threshold on {@code clock} exists: scan that clock often enough to report it on time. */
    static void noteThreshold(ContextClock clock, long thresholdNanos) {
        if (clock == SYSTEM.clock) {
            synchronized (Watchdog.class) {
                if (SYSTEM.noteThreshold(thresholdNanos) && thread != null) {
                    LockSupport.unpark(thread);
                }
            }
            return;
        }
        WatchdogScan scans;
        synchronized (Watchdog.class) {
            WeakReference<WatchdogScan> ref = OTHERS.get(clock);
            scans = ref == null ? null : ref.get();
            if (scans == null) {
                scans = new WatchdogScan(clock);
                OTHERS.put(clock, new WeakReference<>(scans));
            }
        }
        scans.noteThreshold(thresholdNanos);
        // The first scan at the first tick from now (now itself if it falls on one), so that a callback
        // that starts now, on a virtual clock, is reported at exactly now plus its threshold.
        scans.scheduleBy(scans.nextTickAfter(clock.nanoTime() - 1));
    }

    static void register(CallbackFrame frame) {
        FRAMES.add(new WeakReference<>(frame));
        startOnce();
    }

    static Iterable<WeakReference<CallbackFrame>> frames() {
        return FRAMES;
    }

    private static synchronized void startOnce() {
        if (thread == null) {
            Thread t = LibraryThreads.daemon("synccontext-watchdog", Watchdog::loop);
            t.start();
            thread = t;
        }
    }

    /** The system clock's scans: at each tick or report deadline, skipping (and forgiving) a held JVM. */
    private static void loop() {
        long lastScan = System.nanoTime();
        long dueAt = SYSTEM.nextTickAfter(lastScan);
        for (;;) {
            long now = System.nanoTime();
            // A shorter tick noted meanwhile (it unparks this thread) brings the next scan forward.
            long due = Math.min(dueAt, SYSTEM.nextTickAfter(lastScan));
            if (now - due < 0) {
                LockSupport.parkNanos(due - now);
                continue; // early (spuriously, or unparked): look again
            }
            long late = now - due;
            lastScan = now;
            try {
                if (late > PAUSE_NANOS) {
                    SYSTEM.forgive(late);
                    dueAt = SYSTEM.nextTickAfter(now);
                    continue;
                }
                dueAt = SYSTEM.scan(FRAMES);
                FlightEvents.registerOffCaller();
            } catch (Throwable unexpected) {
                dueAt = SYSTEM.nextTickAfter(now);
                LOG.log(System.Logger.Level.ERROR, "synccontext watchdog failed one scan; it keeps running",
                        unexpected);
            }
        }
    }

    /** Callbacks over their threshold right now, as of their clock's last scan. */
    static List<BlockedCallback> blockedNow() {
        List<BlockedCallback> blocked = new ArrayList<>(SYSTEM.blockedNow());
        List<WatchdogScan> others = new ArrayList<>();
        synchronized (Watchdog.class) {
            for (WeakReference<WatchdogScan> ref : OTHERS.values()) {
                WatchdogScan scans = ref.get();
                if (scans != null) {
                    others.add(scans);
                }
            }
        }
        for (WatchdogScan scans : others) {
            blocked.addAll(scans.blockedNow());
        }
        return blocked;
    }
}
