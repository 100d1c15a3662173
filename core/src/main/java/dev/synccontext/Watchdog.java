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
 * <p>Frames are held weakly: a thread that dies takes its frame with it. A callback of an outer
 * context that keeps calling nested callbacks looks busy-but-moving and is reported late; that is
 * the price of not reading a clock per callback.
 */
final class Watchdog {

    static final long MIN_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    static final long MAX_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    private static final int STACK_FRAMES_LOGGED = 32;

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
        for (;;) {
            LockSupport.parkNanos(tickNanos);
            try {
                scan();
            } catch (Throwable unexpected) {
                LOG.log(System.Logger.Level.ERROR, "synccontext watchdog failed one scan; it keeps running",
                        unexpected);
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
        if (LOG.isLoggable(System.Logger.Level.WARNING)) {
            StringBuilder message = new StringBuilder()
                    .append("Callback of context '").append(blocked.contextName())
                    .append("' has been running for at least ").append(blocked.runningFor().toMillis())
                    .append(" ms on thread '").append(blocked.threadName())
                    .append("' (blocked threshold ")
                    .append(TimeUnit.NANOSECONDS.toMillis(ctx.settings.blockedThresholdNanos))
                    .append(" ms); every other callback of this context waits behind it. Stack:");
            for (StackTraceElement element : blocked.topFrames(STACK_FRAMES_LOGGED)) {
                message.append("\n\tat ").append(element);
            }
            LOG.log(System.Logger.Level.WARNING, message.toString());
        }
        SyncContextObserver observer = ctx.settings.observer;
        if (observer != null) {
            try {
                observer.callbackBlocked(blocked);
            } catch (Throwable failure) {
                LOG.log(System.Logger.Level.ERROR, "SyncContextObserver.callbackBlocked threw", failure);
            }
        }
    }

    @SuppressWarnings("deprecation") // Thread.getId(): threadId() needs Java 19.
    private static BlockedCallback describe(CallbackFrame frame, SyncContext ctx, long runningNanos) {
        Thread owner = frame.thread;
        return new BlockedCallback(ctx.name(), ctx, owner.getName(), owner.getId(),
                Duration.ofNanos(runningNanos), Arrays.asList(owner.getStackTrace()));
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
