package dev.synccontext;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The thread that tells a stuck task from a busy pool: while work is queued it looks at every worker
 * each tick, stops counting the ones that have stayed in one task since its last look, and gives the
 * queued work as many workers as that freed ({@link ElasticPool#signalForQueued}).
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Looking whenever queued work depends on it.</b> It parks only after the queue has been
 *       empty for {@value #LINGER_TICKS} looks, and re-checks the queue after publishing that it
 *       parks. Whoever leaves work queued behind a task that may block wakes it: a submitter that finds
 *       every counted worker awake, and a worker that starts a task while others are still queued
 *       ({@link ElasticPool#work}). So queued work never waits on a parked monitor while the tasks
 *       ahead of it block.</li>
 *   <li><b>Soon, then sooner.</b> A look compensates every worker still in the task it was in at the
 *       previous look, or in a task that has run longer than {@code tick / }{@value #FAST_TICK_DIVISOR};
 *       after a look that found stuck workers the next comes {@value #FAST_TICK_DIVISOR} times sooner,
 *       so work queued behind several blocked drains gets threads within a few milliseconds.</li>
 *   <li><b>One thread, started lazily.</b> Started by the first {@link #wake}, a daemon named
 *       {@code <prefix>monitor-N} that inherits nothing from the thread that made it
 *       ({@link LibraryThreads}); it never ends (it parks while the queue stays empty).</li>
 * </ul>
 * It does not count a worker twice: the mark is a CAS on the worker ({@link ElasticWorker#markBlocked}).
 * A CPU-bound task longer than a tick looks the same as a blocked one and is compensated too.
 */
final class ElasticMonitor {

    /** After a look that found stuck workers, the next look comes this many times sooner. */
    static final int FAST_TICK_DIVISOR = 8;
    /** Looks at an empty queue before the monitor parks (50 ticks: 100 ms at the default tick). */
    static final int LINGER_TICKS = 50;

    private static final AtomicLong MONITOR_IDS = new AtomicLong();

    private final ElasticPool pool;
    private final long tickNanos;
    private final Thread thread;
    /** 0 until the first {@link #wake} starts the thread (moved once, by CAS). */
    private final AtomicInteger started = new AtomicInteger();
    /** Written by the monitor thread only: true while it parks (or is about to) for want of queued work. */
    private volatile boolean parked;
    private final AtomicLong compensations = new AtomicLong();

    ElasticMonitor(ElasticPool pool, String namePrefix, long tickNanos) {
        this.pool = pool;
        this.tickNanos = tickNanos;
        thread = LibraryThreads.daemon(namePrefix + "monitor-" + MONITOR_IDS.incrementAndGet(), this::loop);
    }

    /** Starts the monitor on the first call; afterwards unparks it if it is parked. */
    void wake() {
        if (started.get() == 0 && started.compareAndSet(0, 1)) {
            thread.start();
        } else if (parked) {
            LockSupport.unpark(thread);
        }
    }

    /** Whether the monitor is parked (it parks after the queue has been empty for a while). */
    boolean isParked() {
        return parked;
    }

    /** How many times a worker stuck in one task was compensated for. */
    long compensationCount() {
        return compensations.get();
    }

    /** Looks while work is queued; parks only after the queue has been empty for a while. */
    private void loop() {
        int streak = 0; // consecutive looks that found stuck workers
        int emptyLooks = 0;
        for (;;) {
            // Linger a while before parking: under a steady load the queue is empty between bursts,
            // and a monitor that parked each time would cost a submitter an unpark per burst.
            if (pool.isQueueEmpty() && ++emptyLooks > LINGER_TICKS) {
                emptyLooks = 0;
                parked = true;
                // Re-check after publishing the flag: execute() offers first and reads the flag after.
                if (pool.isQueueEmpty()) {
                    LockSupport.park(this);
                }
                parked = false;
                continue;
            }
            if (!pool.isQueueEmpty()) {
                emptyLooks = 0;
            }
            // Look first (woken by a submitter that found every awake worker busy, the busy ones may
            // have been stuck for long), then sleep; having just found stuck workers, look again soon:
            // the workers woken for them may take more blocked drains.
            streak = compensateBlocked() ? streak + 1 : 0;
            LockSupport.parkNanos(this, streak > 0 ? tickNanos / FAST_TICK_DIVISOR : tickNanos);
        }
    }

    /**
     * Stops counting workers that have been in one task since the last look (a blocked callback, or
     * a long CPU-bound batch), then gives queued work as many workers as that freed. (Waking more
     * than that, doubling while looks keep finding stuck workers, was tried: on this 2-core machine
     * under load it made the post-to-run tail worse, 340 ms against 30-70 ms, as the extra threads
     * compete for the CPUs with the ones that have work.)
     *
     * @return whether stuck workers were found
     */
    private boolean compensateBlocked() {
        int found = 0;
        long now = System.nanoTime();
        long stuckAfter = tickNanos / FAST_TICK_DIVISOR;
        for (ElasticWorker w : pool.workers()) {
            int seq = w.taskSeqOpaque();
            // In one task since the last look, or (one look is enough) for longer than a fast tick.
            if (w.currentOpaque() != null && (seq == w.seenSeq || now - w.startedAtOpaque() > stuckAfter)
                    && w.markBlocked()) {
                pool.uncountBlocked();
                compensations.incrementAndGet();
                found++;
            }
            w.seenSeq = seq;
        }
        pool.signalForQueued();
        return found > 0;
    }
}
