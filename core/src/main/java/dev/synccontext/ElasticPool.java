package dev.synccontext;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.jspecify.annotations.Nullable;

/**
 * The queue, the threads and how they find work: submit, take, spin, park, wake, retire. It owns the
 * queue and every count that decides whether a submitter wakes a worker ({@code awake},
 * {@code spinning}, {@code threads}); the {@link ElasticMonitor} changes them only through
 * {@link #uncountBlocked} and {@link #signalForQueued}. How the whole pool works and why is in
 * {@link ElasticExecutor}.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>No task without a worker.</b> A task offered to the queue is taken by a worker that is awake
 *       and counted, by the spinner, or by a worker this offer wakes or starts; or, when
 *       {@code parallelism} counted workers are busy, the monitor is watching them (so if they are
 *       stuck, it stops counting them and this task gets a worker). The offer-then-read order of
 *       {@link #execute} against the flag-then-read order of a spinner and a parking worker is what
 *       makes one side see the other.</li>
 *   <li><b>Exactly once.</b> A task is polled from the queue once, or lives in one worker's
 *       {@code next} slot, and runs once; a task that throws goes to the thread's uncaught-exception
 *       handler and the worker goes on.</li>
 *   <li><b>The counts come back.</b> {@code awake} counts workers awake and not marked blocked; once
 *       every worker has parked or retired it is 0 (each worker the monitor stopped counting is counted
 *       again once, by whichever of {@link ElasticWorker#unmarkBlocked} and the monitor wins).</li>
 *   <li><b>At most {@code maxThreads} threads, at most one spinner.</b> A thread is started only by a
 *       CAS that keeps {@code threads <= maxThreads}; the spinning flag is taken by CAS.</li>
 * </ul>
 */
final class ElasticPool {

    private final String namePrefix;
    private final int parallelism;
    private final int maxThreads;
    private final long keepAliveNanos;
    private final long spinNanos;

    private final ConcurrentLinkedQueue<Runnable> queue = new ConcurrentLinkedQueue<>();
    /** Parked workers, most recently parked first (so the others time out and retire). */
    private final ConcurrentLinkedDeque<ElasticWorker> idle = new ConcurrentLinkedDeque<>();
    private final List<ElasticWorker> workers = new CopyOnWriteArrayList<>();
    /** Workers awake and not counted as blocked: running, searching, spinning or about to park. */
    private final AtomicInteger awake = new AtomicInteger();
    /** Whether a worker is spinning for work right now (at most one). */
    private final AtomicInteger spinning = new AtomicInteger();
    private final AtomicInteger threads = new AtomicInteger();
    private final AtomicLong threadIds = new AtomicLong();
    /** Times {@link #signal} found {@code maxThreads} alive and busy; written only on that rare path. */
    private final AtomicLong capReached = new AtomicLong();
    /** Started with the first worker; looks only while work is queued. */
    private final ElasticMonitor monitor;

    ElasticPool(String namePrefix, int parallelism, int maxThreads, long keepAliveNanos, long tickNanos,
            long spinNanos) {
        this.namePrefix = namePrefix;
        this.parallelism = parallelism;
        this.maxThreads = maxThreads;
        this.keepAliveNanos = keepAliveNanos;
        this.spinNanos = spinNanos;
        this.monitor = new ElasticMonitor(this, namePrefix, tickNanos);
    }

    void execute(Runnable task) {
        if (Thread.currentThread() instanceof ElasticWorker w && w.pool == this && w.current == task && w.next == null) {
            // A drain resubmitting itself: run it next on this thread, no wake-up (see takeTask).
            w.next = task;
            return;
        }
        queue.offer(task);
        // Offer first, then read: a spinner or a worker going idle writes its flag and then reads the
        // queue, so one of the two sides sees the other and the task is never left without a worker.
        if (spinning.get() == 0) {
            ensureProgress();
        }
    }

    /**
     * Work is queued and no worker spins for it: wake or start a worker if fewer than
     * {@code parallelism} are awake, otherwise make sure the monitor watches the busy ones (if they
     * are stuck, it stops counting them and this work gets a worker after all).
     */
    private void ensureProgress() {
        if (awake.get() < parallelism) {
            signal();
        } else if (monitor.isParked()) {
            monitor.wake();
        }
    }

    /** Wakes a parked worker or starts a new one; false if {@code maxThreads} are alive and busy. */
    private boolean signal() {
        ElasticWorker w;
        while ((w = idle.pollFirst()) != null) {
            if (w.casState(ElasticWorker.PARKED, ElasticWorker.AWAKE)) {
                awake.incrementAndGet();
                LockSupport.unpark(w);
                return true;
            }
        }
        for (int n; (n = threads.get()) < maxThreads;) {
            if (threads.compareAndSet(n, n + 1)) {
                awake.incrementAndGet();
                String name = namePrefix + threadIds.incrementAndGet();
                ElasticWorker started = LibraryThreads.create(() -> new ElasticWorker(this, name));
                workers.add(started);
                started.start();
                monitor.wake();
                return true;
            }
        }
        capReached.incrementAndGet(); // at the cap: queued work waits for a busy thread
        monitor.wake();
        return false;
    }

    /** The worker's loop: take, run, repeat; returns when the worker retires. */
    void work(ElasticWorker w) {
        try {
            for (Runnable task; (task = takeTask(w)) != null;) {
                if (monitor.isParked() && !queue.isEmpty()) {
                    // This task may block, and the work left queued would then depend on the monitor
                    // alone: it must be looking (see ElasticMonitor#loop).
                    monitor.wake();
                }
                w.startTask(task);
                try {
                    task.run();
                } catch (Throwable failure) {
                    Thread.UncaughtExceptionHandler handler = w.getUncaughtExceptionHandler();
                    try {
                        handler.uncaughtException(w, failure);
                    } catch (Throwable ignored) {
                        // The handler failed too; the worker must live on regardless.
                    }
                }
                if (w.endTask()) {
                    awake.incrementAndGet(); // the monitor had stopped counting this worker
                }
                // A task that left its thread interrupted (catch InterruptedException, re-interrupt)
                // must not leak that into the next task, nor make parking return at once and spin.
                Thread.interrupted();
            }
        } finally {
            workers.remove(w);
        }
    }

    private @Nullable Runnable takeTask(ElasticWorker w) {
        Runnable task = w.next;
        if (task != null) {
            w.next = null;
            Runnable waiting = queue.poll();
            if (waiting == null) {
                return task;
            }
            queue.offer(task); // others are waiting: the resubmitted drain goes behind them
            if (spinning.get() == 0) {
                ensureProgress();
            }
            return waiting;
        }
        for (;;) {
            task = queue.poll();
            if (task != null) {
                return task;
            }
            if (spinning.get() == 0 && spinning.compareAndSet(0, 1)) {
                task = spin();
                if (task != null) {
                    return task;
                }
            }
            if (!park(w)) {
                return null; // retired
            }
        }
    }

    /**
     * {@code drain}, the task {@code w} runs, ends a batch where it would resubmit itself: with no other
     * task queued, {@link #execute} would put it into {@code next} and {@link #takeTask} take it straight
     * back, so do here what ending it and starting it again would do (count the worker back if the
     * monitor had marked it blocked, clear a stray interrupt, publish a new task start for the monitor)
     * and tell it to go on. False, with nothing done, if a task is queued or {@code drain} is not
     * {@code w}'s task: then it resubmits itself as usual.
     */
    boolean restartInPlace(ElasticWorker w, Runnable drain) {
        if (w.current != drain || w.next != null || !queue.isEmpty()) {
            return false;
        }
        if (w.unmarkBlocked()) {
            awake.incrementAndGet(); // the monitor had stopped counting this worker
        }
        Thread.interrupted();
        w.startTask(drain);
        return true;
    }

    /**
     * Spins for up to {@code spinNanos}; the caller holds the spinning flag, released here. Submitters
     * that saw the flag up left their task to the spinner without waking anyone, so a spinner that
     * takes a task and leaves others queued hands those on ({@link #ensureProgress}), whichever way
     * it stops spinning. (A spinner descheduled past its deadline, which on 2 CPUs under load is
     * common, stops through the last look with a whole burst queued behind the task it takes.)
     */
    private Runnable spin() {
        long deadline = System.nanoTime() + spinNanos;
        Runnable task;
        int spins = 0;
        do {
            task = queue.poll();
            if (task != null) {
                break;
            }
            if ((++spins & 63) == 0) {
                Thread.yield(); // on a small machine, let the thread that will submit run
            } else {
                Thread.onSpinWait();
            }
        } while ((spins & 15) != 0 || System.nanoTime() < deadline);
        spinning.set(0);
        if (task == null) {
            task = queue.poll(); // the flag is down: look once more (see execute)
        }
        if (task != null && !queue.isEmpty()) {
            ensureProgress(); // more work than this worker: let another one look too
        }
        return task;
    }

    /**
     * Parks {@code w} until a submitter wakes it or {@code keepAlive} passes. True if the worker
     * should look for work again, false if it retired.
     */
    private boolean park(ElasticWorker w) {
        w.setState(ElasticWorker.PARKED);
        idle.addFirst(w);
        if (!w.unmarkBlocked()) {
            awake.decrementAndGet(); // unless the monitor already stopped counting this worker
        }
        // The flag is written: look once more, as a submitter that saw this worker awake did not wake one.
        if (!queue.isEmpty() && w.casState(ElasticWorker.PARKED, ElasticWorker.AWAKE)) {
            awake.incrementAndGet();
            idle.remove(w);
            return true;
        }
        long deadline = System.nanoTime() + keepAliveNanos;
        while (w.state() == ElasticWorker.PARKED) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                if (w.casState(ElasticWorker.PARKED, ElasticWorker.RETIRED)) {
                    idle.remove(w);
                    threads.decrementAndGet();
                    return false;
                }
                break; // woken at the last moment
            }
            Thread.interrupted(); // nothing interrupts a parked worker but a stray interrupt: ignore it
            LockSupport.parkNanos(this, left);
        }
        return true; // the waker counted this worker as awake again
    }

    // ---------------------------------------------------------------- for the monitor

    /** The workers alive now (a snapshot to iterate). */
    List<ElasticWorker> workers() {
        return workers;
    }

    /** The monitor marked a worker blocked ({@link ElasticWorker#markBlocked} won): it no longer counts as awake. */
    void uncountBlocked() {
        awake.decrementAndGet();
    }

    /** Gives queued work workers while fewer than {@code parallelism} are counted awake and none spins. */
    void signalForQueued() {
        while (!queue.isEmpty() && spinning.get() == 0 && awake.get() < parallelism && signal()) {
            // one more worker for the queued work
        }
    }

    // ---------------------------------------------------------------- observation

    boolean isQueueEmpty() {
        return queue.isEmpty();
    }

    int queued() {
        return queue.size();
    }

    int parallelism() {
        return parallelism;
    }

    int threadCount() {
        return threads.get();
    }

    int awakeCount() {
        return awake.get();
    }

    boolean isSpinning() {
        return spinning.get() != 0;
    }

    int parkedWorkers() {
        return idle.size();
    }

    int maxThreads() {
        return maxThreads;
    }

    long capReachedCount() {
        return capReached.get();
    }

    /**
     * Workers alive and running a task, counted as blocked ({@code true}) or not ({@code false}); one
     * pass over the workers, each read opaque (a snapshot for observation only).
     */
    int runningWorkers(boolean blocked) {
        int n = 0;
        for (ElasticWorker w : workers) {
            if (w.state() != ElasticWorker.RETIRED && w.currentOpaque() != null && w.isBlockedOpaque() == blocked) {
                n++;
            }
        }
        return n;
    }

    ElasticMonitor monitor() {
        return monitor;
    }
}
