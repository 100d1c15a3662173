package dev.synccontext;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/**
 * The one place where contexts, and the parts built on them, read time and set timers: the watchdog's
 * blocked threshold and its scans, {@link RendererSyncContext#awaitTermination awaitTermination}'s timeout, a
 * registry's shutdown timeout and forced closes, and the starter's session idle eviction. Set per
 * context with {@link RendererSyncContext.Builder#clock}; the default, {@link #system()}, is the JVM's
 * monotonic clock and a shared daemon timer thread.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>The hot path never reads it.</b> Running, queueing and draining callbacks read no clock of
 *       any kind; the sampled metrics timings measure real CPU time with {@link System#nanoTime()} and
 *       stay on it. So a clock costs nothing per callback, and a test clock changes only what waits for
 *       time to pass.</li>
 *   <li><b>Swappable as a whole.</b> A test kit (the {@code synccontext-test} artifact's virtual clock)
 *       implements all three methods, so a test that waits out a 30 s timeout moves time instead of
 *       sleeping.</li>
 * </ul>
 * Implementations must be thread-safe.
 */
public interface ContextClock {

    /** The JVM's clock: {@link System#nanoTime()}, and timers on one shared daemon thread. */
    static ContextClock system() {
        return SystemClock.INSTANCE;
    }

    /** Monotonic time in nanoseconds, on an arbitrary origin (as {@link System#nanoTime()}). */
    long nanoTime();

    /**
     * Runs {@code task} once, {@code delay} from now, on a thread of the clock's choosing.
     *
     * @return a handle that {@link Future#cancel cancels} the task if it has not started
     */
    Future<?> schedule(Runnable task, Duration delay);

    /**
     * Runs {@code task} once, {@code delay} from now, as a <em>background</em> timer: one that must never
     * keep time busy by itself. The watchdog sets its scans of the contexts on this clock with it (the
     * system clock's scans run on the watchdog's own thread instead). A clock whose time is moved by hand
     * (a test's virtual clock) fires a background timer when its time passes the due time, like any
     * other, but never moves time for it alone and does not count it as pending work; such a clock should
     * override this method. The default is {@link #schedule}.
     *
     * @return a handle that {@link Future#cancel cancels} the task if it has not started
     */
    default Future<?> scheduleBackground(Runnable task, Duration delay) {
        return schedule(task, delay);
    }

    /**
     * Waits until {@code done} completes or {@code timeoutNanos} have passed on this clock, whichever
     * is first; how {@code awaitTermination} waits.
     *
     * @return whether {@code done} completed (normally or not)
     */
    boolean await(CompletableFuture<?> done, long timeoutNanos) throws InterruptedException;
}
