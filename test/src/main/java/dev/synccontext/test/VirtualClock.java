package dev.synccontext.test;

import dev.synccontext.ContextClock;
import java.time.Duration;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import org.jspecify.annotations.Nullable;

/**
 * A {@link ContextClock} whose time moves only when the test moves it. Starts at zero; timers
 * ({@link #schedule}) fire on the thread that moves time past their due time, in due-time order (ties in
 * the order they were set), each followed by the work it queued on the kit's executor.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Exact.</b> After {@code advanceBy(d)} a timer due at {@code now + d} has fired and one due a
 *       nanosecond later has not; {@link #nanoTime()} reads the due time while a timer runs.</li>
 *   <li><b>Waiting never waits.</b> {@link #await} (how {@code awaitTermination}, and so a registry's
 *       shutdown timeout, waits) runs the executor's queued work and fires timers up to the deadline on
 *       the calling thread, then answers: virtual time moves to the deadline instead of the thread
 *       sleeping. Work running on real threads (outside the kit) is not waited for.</li>
 *   <li><b>Thread-safe</b>, with time moved by one thread at a time as the intended use.</li>
 * </ul>
 */
public final class VirtualClock implements ContextClock {

    /** {@link #advanceUntilIdle()} gives up after this many timers: a timer that re-sets itself forever. */
    public static final int MAX_TIMERS_PER_ADVANCE = 10_000;

    private static final SubmitSite BACKGROUND_SITE = SubmitSite.here();

    private final DeterministicExecutor executor;
    /** Where a timer's failure goes (the kit's unobserved failures), or null: kept in its future only. */
    private final @Nullable CallbackTracker failures;
    private final PriorityQueue<Timer> timers = new PriorityQueue<>();
    private long now;
    private long timersSet;

    /** A clock at zero whose waits and advances run {@code executor}'s queued work. */
    public VirtualClock(DeterministicExecutor executor) {
        this(executor, null);
    }

    VirtualClock(DeterministicExecutor executor, @Nullable CallbackTracker failures) {
        this.executor = Objects.requireNonNull(executor, "executor");
        this.failures = failures;
    }

    @Override
    public synchronized long nanoTime() {
        return now;
    }

    /** Virtual time since the clock was made. */
    public Duration currentTime() {
        return Duration.ofNanos(nanoTime());
    }

    @Override
    public Future<?> schedule(Runnable task, Duration delay) {
        return set(task, delay, false);
    }

    /**
     * A background timer (how the watchdog scans the callbacks of the contexts on this clock): fires
     * when time passes its due time, in order with the other timers, but is not counted by
     * {@link #pendingTimers()} and never makes {@link #advanceUntilIdle()} move time for it alone.
     */
    @Override
    public Future<?> scheduleBackground(Runnable task, Duration delay) {
        return set(task, delay, true);
    }

    private Future<?> set(Runnable task, Duration delay, boolean background) {
        Objects.requireNonNull(task, "task");
        long delayNanos = saturatedNanos(Objects.requireNonNull(delay, "delay"));
        synchronized (this) {
            // A background timer is the library's own (the watchdog's scans): no submit site worth a stack walk.
            Timer timer = new Timer(task, saturatedAdd(now, delayNanos), timersSet++,
                    background ? BACKGROUND_SITE : SubmitSite.here(), failures, background);
            timers.add(timer);
            return timer;
        }
    }

    /** Timers set and neither fired nor cancelled (background ones not counted). */
    public synchronized int pendingTimers() {
        timers.removeIf(Timer::isCancelled);
        return (int) timers.stream().filter(timer -> !timer.background).count();
    }

    @Override
    public boolean await(CompletableFuture<?> done, long timeoutNanos) {
        long deadline = saturatedAdd(nanoTime(), Math.max(0, timeoutNanos));
        executor.runUntilIdle();
        while (!done.isDone()) {
            if (fireNextDueBy(deadline) == null) {
                moveTo(deadline);
                executor.runUntilIdle();
                break;
            }
            executor.runUntilIdle();
        }
        return done.isDone();
    }

    /**
     * Moves time forward by {@code duration}: runs queued work, then fires each timer due by then in
     * order (running the work each one queues), and leaves time at exactly {@code now + duration}.
     */
    public void advanceBy(Duration duration) {
        Objects.requireNonNull(duration, "duration");
        if (duration.isNegative()) {
            throw new IllegalArgumentException("Time only moves forward; advanceBy(" + duration + ")");
        }
        long target = saturatedAdd(nanoTime(), saturatedNanos(duration));
        executor.runUntilIdle();
        while (fireNextDueBy(target) != null) {
            executor.runUntilIdle();
        }
        moveTo(target);
        executor.runUntilIdle();
    }

    /**
     * Runs queued work and fires timers, moving time to each one's due time, until neither is left.
     *
     * @throws IllegalStateException after {@value #MAX_TIMERS_PER_ADVANCE} timers: some timer re-sets
     *     itself forever (a periodic one, such as the starter's session idle eviction); use
     *     {@link #advanceBy} then
     */
    public void advanceUntilIdle() {
        executor.runUntilIdle();
        // Background timers fire on the way, as time passes them, but time never moves for them alone.
        for (int fired = 0;;) {
            Timer next = fireNextDueBy(nextForegroundDue());
            if (next == null) {
                return;
            }
            executor.runUntilIdle();
            if (!next.background && ++fired >= MAX_TIMERS_PER_ADVANCE) {
                throw new IllegalStateException("Timers keep firing after " + fired + ": a periodic timer"
                        + " (the session idle eviction, a ticker) never lets time be idle; use advanceBy(...)");
            }
        }
    }

    /** The due time of the earliest timer that is not a background one; MIN_VALUE if none is pending. */
    private synchronized long nextForegroundDue() {
        long earliest = Long.MAX_VALUE;
        boolean any = false;
        for (Timer timer : timers) {
            if (!timer.background && !timer.isCancelled()) {
                earliest = Math.min(earliest, timer.due);
                any = true;
            }
        }
        return any ? earliest : Long.MIN_VALUE;
    }

    /** Fires the earliest timer due by {@code limit}, moving time to its due time; null if none is. */
    private @Nullable Timer fireNextDueBy(long limit) {
        Timer next;
        synchronized (this) {
            timers.removeIf(Timer::isCancelled);
            next = timers.peek();
            if (next == null || next.due > limit) {
                return null;
            }
            timers.poll();
            now = Math.max(now, next.due);
        }
        next.run(); // a FutureTask: what the timer throws is kept in its future (and told to the kit)
        return next;
    }

    private synchronized void moveTo(long target) {
        now = Math.max(now, target);
    }

    private static long saturatedNanos(Duration d) {
        try {
            return Math.max(0, d.toNanos());
        } catch (ArithmeticException tooLong) {
            return d.isNegative() ? 0 : Long.MAX_VALUE;
        }
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return sum < a ? Long.MAX_VALUE : sum;
    }

    @Override
    public String toString() {
        return "VirtualClock[" + currentTime() + "]";
    }

    /** A timer: a future that runs its task once, ordered by due time, then by when it was set. */
    private static final class Timer extends FutureTask<@Nullable Void> implements Comparable<Timer> {

        final long due;
        final long order;
        final boolean background;
        private final SubmitSite site;
        private final @Nullable CallbackTracker failures;

        Timer(Runnable task, long due, long order, SubmitSite site, @Nullable CallbackTracker failures,
                boolean background) {
            super(task, null);
            this.due = due;
            this.order = order;
            this.site = site;
            this.failures = failures;
            this.background = background;
        }

        @Override
        protected void setException(Throwable failure) {
            super.setException(failure);
            if (failures != null) {
                failures.failed("a timer", failure, site);
            }
        }

        @Override
        public int compareTo(Timer other) {
            int byDue = Long.compare(due, other.due);
            return byDue != 0 ? byDue : Long.compare(order, other.order);
        }
    }
}
