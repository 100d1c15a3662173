package dev.synccontext;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * Finds callbacks that run longer than their context's blocked threshold, without the hot path
 * reading a clock.
 *
 * <p>One daemon thread for the whole JVM, started when the first thread enters a callback. Every
 * tick it looks at each thread's {@link CallbackFrame}: a frame whose callback sequence number has
 * not moved since an earlier tick has been running the same callback at least since that tick. So a
 * callback is reported between {@code threshold} and {@code threshold + tick} after it started, once,
 * with its thread's stack. The tick adapts to the smallest threshold in use (a quarter of it, between
 * 5 ms and 250 ms), so the default 2 s threshold costs four wake-ups a second.
 *
 * <p><b>Quiet while the JVM is held.</b> A tick that comes much later than asked for (more than
 * {@link #PAUSE_NANOS} beyond its period: a debugger suspended the JVM at a breakpoint, or a very long
 * safepoint) reports nothing, and the time it was held is not counted as running time: every callback
 * being watched is timed again from the end of the pause, as if it had started then. A debugger that
 * suspends only the callback's own thread does not stop the watchdog, which then reports that
 * callback as blocked.
 *
 * <p>What a report says and where it goes (log line, observer, Flight Recorder) is
 * {@link BlockedReport}'s.
 *
 * <p>Frames are held weakly: a thread that dies takes its frame with it. A callback of an outer
 * context that keeps calling nested callbacks looks busy-but-moving and is reported late; that is
 * the price of not reading a clock per callback.
 */
final class Watchdog {

    static final long MIN_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    static final long MAX_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    /** A tick this much later than its period means the JVM (or this thread) was held: see above. */
    static final long PAUSE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private static final System.Logger LOG = System.getLogger(RendererSyncContext.class.getName());
    private static final ConcurrentLinkedQueue<WeakReference<CallbackFrame>> FRAMES =
            new ConcurrentLinkedQueue<>();
    private static volatile long tickNanos = MAX_TICK_NANOS;
    private static @Nullable Thread thread;

    private Watchdog() {
    }

    /** A context with this threshold exists: tick often enough to report it on time. */
    static void noteThreshold(long thresholdNanos) {
        long wanted = Math.max(MIN_TICK_NANOS, Math.min(MAX_TICK_NANOS, thresholdNanos / 4));
        synchronized (Watchdog.class) {
            if (wanted < tickNanos) {
                tickNanos = wanted;
                if (thread != null) {
                    LockSupport.unpark(thread);
                }
            }
        }
    }

    static void register(CallbackFrame frame) {
        FRAMES.add(new WeakReference<>(frame));
        startOnce();
    }

    private static synchronized void startOnce() {
        if (thread == null) {
            Thread t = new Thread(Watchdog::loop, "synccontext-watchdog");
            t.setDaemon(true);
            t.start();
            thread = t;
        }
    }

    private static void loop() {
        long last = System.nanoTime();
        for (;;) {
            long tick = tickNanos;
            LockSupport.parkNanos(tick);
            long now = System.nanoTime();
            long held = now - last - tick;
            last = now;
            try {
                if (held > PAUSE_NANOS) {
                    forgive(held);
                    continue;
                }
                scan();
            } catch (Throwable unexpected) {
                LOG.log(System.Logger.Level.ERROR, "synccontext watchdog failed one scan; it keeps running",
                        unexpected);
            }
        }
    }

    /** The JVM was held for {@code heldNanos}: that time counts as running time for no callback. */
    private static void forgive(long heldNanos) {
        for (WeakReference<CallbackFrame> ref : FRAMES) {
            CallbackFrame frame = ref.get();
            // Only frames on the system clock: a test kit's virtual time did not move while the JVM was held.
            if (frame != null && (frame.watchedContext == null
                    || frame.watchedContext.settings.clock == ContextClock.system())) {
                frame.watchedSinceNanos += heldNanos;
            }
        }
    }

    private static void scan() {
        for (Iterator<WeakReference<CallbackFrame>> it = FRAMES.iterator(); it.hasNext();) {
            CallbackFrame frame = it.next().get();
            if (frame == null) {
                it.remove();
                continue;
            }
            SyncContext ctx = frame.context;
            int seq = frame.seq;
            if (ctx == null || ctx.settings.blockedThresholdNanos == 0) {
                // Forget idle threads' contexts: a pool thread must not keep a closed session's
                // context reachable until it happens to run another callback.
                frame.watchedContext = null;
                frame.reportedContext = null;
                continue;
            }
            long now = ctx.settings.clock.nanoTime(); // a test kit's context runs on virtual time
            if (ctx != frame.watchedContext || seq != frame.watchedSeq) {
                frame.watchedContext = ctx;
                frame.watchedSeq = seq;
                frame.watchedSinceNanos = now;
                continue;
            }
            long running = now - frame.watchedSinceNanos;
            boolean reported = frame.reportedSeq == seq && frame.reportedContext == ctx;
            if (running >= ctx.settings.blockedThresholdNanos && !reported) {
                BlockedCallback blocked = describe(frame, ctx, running);
                if (frame.context == ctx && frame.seq == seq) {
                    frame.reportedSeq = seq;
                    frame.reportedContext = ctx;
                    report(ctx, blocked);
                }
            }
        }
    }

    private static void report(SyncContext ctx, BlockedCallback blocked) {
        ctx.countBlocked();
        BlockedReport.deliver(ctx, blocked);
    }

    @SuppressWarnings("deprecation") // Thread.getId(): threadId() needs Java 19.
    private static BlockedCallback describe(CallbackFrame frame, SyncContext ctx, long runningNanos) {
        Thread owner = frame.thread;
        int seq = frame.watchedSeq;
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

    /** Callbacks over their threshold right now, as of the watchdog's last tick. */
    static List<BlockedCallback> blockedNow() {
        List<BlockedCallback> blocked = new ArrayList<>();
        for (WeakReference<CallbackFrame> ref : FRAMES) {
            CallbackFrame frame = ref.get();
            if (frame == null) {
                continue;
            }
            SyncContext ctx = frame.context;
            if (ctx == null || ctx.settings.blockedThresholdNanos == 0 || ctx != frame.watchedContext
                    || frame.seq != frame.watchedSeq) {
                continue;
            }
            long running = ctx.settings.clock.nanoTime() - frame.watchedSinceNanos;
            if (running >= ctx.settings.blockedThresholdNanos) {
                blocked.add(describe(frame, ctx, running));
            }
        }
        return blocked;
    }
}
