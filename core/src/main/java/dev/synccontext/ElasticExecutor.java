package dev.synccontext;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The default executor of every context: a pool of daemon threads that runs as many drains at once
 * as there are CPUs, and adds a thread whenever a running drain has been stuck in one task for a
 * while, so that a callback that blocks (a JDBC call, an HTTP call) never holds up the drains of
 * other contexts.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Every task runs.</b> A task accepted by {@link #execute} is run exactly once, by some
 *       worker; {@code execute} never throws for a non-null task (above {@code maxThreads}
 *       tasks simply wait their turn in the queue). A task that throws is reported to the
 *       thread's uncaught-exception handler and the worker goes on.</li>
 *   <li><b>A blocked task costs one thread, not the pool.</b> While work is queued, a monitor
 *       thread looks every {@code tick} (default 2 ms); a worker whose task has not changed since
 *       its last look no longer counts towards the parallelism target, and queued work then gets
 *       other workers (idle ones, or new threads up to {@code maxThreads}). After a look that found
 *       stuck workers the next comes {@value #FAST_TICK_DIVISOR} times sooner, so work queued behind
 *       several blocked drains (each round of replacements may take more of them) gets threads
 *       within a few milliseconds, not for as long as the callbacks block.</li>
 *   <li><b>No thread it does not need.</b> Threads are created on demand and retire after
 *       {@code keepAlive} idle (default 60 s); all are daemons named {@code synccontext-N}.</li>
 * </ul>
 *
 * <h2>Why not the common pool, or a virtual thread per drain</h2>
 * {@code ForkJoinPool.commonPool()} has {@code CPUs - 1} workers (one on a 2-CPU container), and a
 * blocking callback holds one of them for as long as it blocks: every other context's queued work
 * waits behind it. Virtual threads unmount when they block, except while pinned (inside
 * {@code synchronized} up to Java 23, in native frames and class initializers on every version),
 * and Java 17 has none; they also cost a new thread and a carrier wake-up per drain. This pool keeps
 * the hand-off cheap instead (measured in {@code bench/README.md}):
 * <ul>
 *   <li>A drain that resubmits itself after {@code maxBatch} callbacks goes into its worker's
 *       <em>next</em> slot and runs right after on the same thread, with no wake-up; unless other
 *       tasks are waiting, in which case it goes behind them (fairness is why it resubmits).</li>
 *   <li>A worker that runs out of work spins for a few tens of microseconds before it parks (one
 *       spinner at a time), so a post to an idle context that arrives meanwhile is picked up
 *       without waking a thread; a submitter wakes or starts a worker only when no worker spins
 *       and fewer than {@code parallelism} are awake.</li>
 *   <li>A drain that has caught up with a producer steps back for up to 20 µs while nothing else is
 *       queued ({@link #stepBack}), so that it follows in batches rather than one post at a time.</li>
 * </ul>
 *
 * <h2>Known limits</h2>
 * Above {@code maxThreads} (default {@code max(256, 16 × CPUs)}) blocked callbacks, further work
 * queues until one returns. A CPU-bound task that runs longer than a tick is also counted as blocked
 * and compensated for, so the pool may briefly run more threads than there are CPUs.
 */
final class ElasticExecutor implements Executor {

    static final long DEFAULT_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(2);
    static final long DEFAULT_KEEP_ALIVE_NANOS = TimeUnit.SECONDS.toNanos(60);
    static final long DEFAULT_SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    /**
     * How long a drain right behind a producer steps back ({@link #stepBack}). Measured with
     * {@code PostConcurrent} (bench/README.md, "A drain right behind its producer steps back"): from
     * 5 µs on, almost no fork stays in the lockstep mode, and the longer the step back the more forks
     * reach the fast one; 20 µs is where the wait it adds to a callback still stays small.
     */
    static final long STEP_BACK_NANOS = TimeUnit.MICROSECONDS.toNanos(20);

    /** After a look that found stuck workers, the next look comes this many times sooner. */
    static final int FAST_TICK_DIVISOR = 8;
    /** Looks at an empty queue before the monitor parks (50 ticks: 100 ms at the default tick). */
    static final int LINGER_TICKS = 50;

    private static final int PARKED = 0;
    private static final int AWAKE = 1;
    private static final int RETIRED = 2;

    private static final AtomicLong POOL_IDS = new AtomicLong();

    private final String namePrefix;
    private final int parallelism;
    private final int maxThreads;
    private final long keepAliveNanos;
    private final long tickNanos;
    private final long spinNanos;

    private final ConcurrentLinkedQueue<Runnable> queue = new ConcurrentLinkedQueue<>();
    /** Parked workers, most recently parked first (so the others time out and retire). */
    private final ConcurrentLinkedDeque<Worker> idle = new ConcurrentLinkedDeque<>();
    private final List<Worker> workers = new CopyOnWriteArrayList<>();
    /** Workers awake and not counted as blocked: running, searching, spinning or about to park. */
    private final AtomicInteger awake = new AtomicInteger();
    /** Whether a worker is spinning for work right now (at most one). */
    private final AtomicInteger spinning = new AtomicInteger();
    private final AtomicInteger threads = new AtomicInteger();
    private final AtomicLong threadIds = new AtomicLong();
    private final AtomicLong compensations = new AtomicLong();
    private final AtomicLong stepBacks = new AtomicLong();
    /** Started with the first worker; ticks only while work is queued. */
    private final Thread monitor;
    private final AtomicInteger monitorStarted = new AtomicInteger();
    private volatile boolean monitorParked;

    /** The pool every context uses unless given another executor. */
    static ElasticExecutor shared() {
        return Shared.INSTANCE;
    }

    private static final class Shared {
        static final ElasticExecutor INSTANCE = new ElasticExecutor("synccontext-",
                Runtime.getRuntime().availableProcessors(),
                Math.max(256, 16 * Runtime.getRuntime().availableProcessors()),
                DEFAULT_KEEP_ALIVE_NANOS, DEFAULT_TICK_NANOS, DEFAULT_SPIN_NANOS);
    }

    ElasticExecutor(String namePrefix, int parallelism, int maxThreads, long keepAliveNanos, long tickNanos,
            long spinNanos) {
        if (parallelism < 1 || maxThreads < parallelism) {
            throw new IllegalArgumentException("need 1 <= parallelism <= maxThreads, got parallelism "
                    + parallelism + " and maxThreads " + maxThreads);
        }
        this.namePrefix = Objects.requireNonNull(namePrefix, "namePrefix");
        this.parallelism = parallelism;
        this.maxThreads = maxThreads;
        this.keepAliveNanos = keepAliveNanos;
        this.tickNanos = tickNanos;
        this.spinNanos = spinNanos;
        monitor = new Thread(this::monitorLoop, namePrefix + "monitor-" + POOL_IDS.incrementAndGet());
        monitor.setDaemon(true);
    }

    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        if (Thread.currentThread() instanceof Worker w && w.pool == this && w.current == task && w.next == null) {
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
        } else if (monitorParked) {
            wakeMonitor();
        }
    }

    /** Wakes a parked worker or starts a new one; false if {@code maxThreads} are alive and busy. */
    private boolean signal() {
        Worker w;
        while ((w = idle.pollFirst()) != null) {
            if (w.casState(PARKED, AWAKE)) {
                awake.incrementAndGet();
                LockSupport.unpark(w);
                return true;
            }
        }
        for (int n; (n = threads.get()) < maxThreads;) {
            if (threads.compareAndSet(n, n + 1)) {
                awake.incrementAndGet();
                Worker started = new Worker(namePrefix + threadIds.incrementAndGet());
                workers.add(started);
                started.start();
                wakeMonitor();
                return true;
            }
        }
        wakeMonitor();
        return false;
    }

    /**
     * Called by a drain running on this pool that has caught up with a producer: spins for up to
     * {@link #STEP_BACK_NANOS} so that the producer gets ahead and the drain's next run is a batch
     * instead of one callback per post, each moving the context's cache lines between two CPUs
     * (measured in bench/README.md). It writes nothing the producer reads. Other tasks come first: it
     * returns false at once if any are queued, and stops spinning as soon as one is. The drain holds
     * its thread meanwhile, like a callback that runs a little longer; with nothing else queued, this
     * pool would spin its idle worker for work anyway.
     *
     * @return whether it stepped back (false: tasks are queued; the caller goes on at once)
     */
    boolean stepBack() {
        if (!queue.isEmpty()) {
            return false;
        }
        stepBacks.incrementAndGet();
        long deadline = System.nanoTime() + STEP_BACK_NANOS;
        do {
            for (int i = 0; i < 16; i++) {
                Thread.onSpinWait();
            }
        } while (System.nanoTime() - deadline < 0 && queue.isEmpty());
        return true;
    }

    /** The worker's loop: take, run, repeat; returns when the worker retires. */
    private void work(Worker w) {
        try {
            for (Runnable task; (task = takeTask(w)) != null;) {
                if (monitorParked && !queue.isEmpty()) {
                    // This task may block, and the work left queued would then depend on the monitor
                    // alone: it must be looking (see monitorLoop).
                    wakeMonitor();
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

    private Runnable takeTask(Worker w) {
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
    private boolean park(Worker w) {
        w.setState(PARKED);
        idle.addFirst(w);
        if (!w.unmarkBlocked()) {
            awake.decrementAndGet(); // unless the monitor already stopped counting this worker
        }
        // The flag is written: look once more, as a submitter that saw this worker awake did not wake one.
        if (!queue.isEmpty() && w.casState(PARKED, AWAKE)) {
            awake.incrementAndGet();
            idle.remove(w);
            return true;
        }
        long deadline = System.nanoTime() + keepAliveNanos;
        while (w.state() == PARKED) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                if (w.casState(PARKED, RETIRED)) {
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

    // ---------------------------------------------------------------- monitor

    /**
     * Ticks while work is queued; parks only after the queue has been empty for a while. Whoever
     * leaves work queued behind a task that may block wakes it: a submitter that finds every counted
     * worker awake ({@link #ensureProgress}), and a worker that starts a task while others are still
     * queued ({@link #work}). So queued work never waits on a parked monitor while the tasks ahead of
     * it block.
     */
    private void monitorLoop() {
        int streak = 0; // consecutive looks that found stuck workers
        int emptyLooks = 0;
        for (;;) {
            // Linger a while before parking: under a steady load the queue is empty between bursts,
            // and a monitor that parked each time would cost a submitter an unpark per burst.
            if (queue.isEmpty() && ++emptyLooks > LINGER_TICKS) {
                emptyLooks = 0;
                monitorParked = true;
                // Re-check after publishing the flag: execute() offers first and reads the flag after.
                if (queue.isEmpty()) {
                    LockSupport.park(this);
                }
                monitorParked = false;
                continue;
            }
            if (!queue.isEmpty()) {
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
        for (Worker w : workers) {
            int seq = w.taskSeqOpaque();
            // In one task since the last look, or (one look is enough) for longer than a fast tick.
            if (w.currentOpaque() != null && (seq == w.seenSeq || now - w.startedAtOpaque() > stuckAfter)
                    && w.markBlocked()) {
                awake.decrementAndGet();
                compensations.incrementAndGet();
                found++;
            }
            w.seenSeq = seq;
        }
        while (!queue.isEmpty() && spinning.get() == 0 && awake.get() < parallelism && signal()) {
            // one more worker for the queued work
        }
        return found > 0;
    }

    private void wakeMonitor() {
        if (monitorStarted.get() == 0 && monitorStarted.compareAndSet(0, 1)) {
            monitor.start();
        } else if (monitorParked) {
            LockSupport.unpark(monitor);
        }
    }

    // ---------------------------------------------------------------- observation (tests, diagnostics)

    /** Threads alive in this pool (workers, not the monitor). */
    int threadCount() {
        return threads.get();
    }

    /** Workers counted as awake and not blocked: 0 once every worker has parked or retired. */
    int awakeCount() {
        return awake.get();
    }

    /** How many times a worker stuck in one task was compensated for. */
    long compensationCount() {
        return compensations.get();
    }

    /** How many times a drain stepped back from a producer ({@link #stepBack}). */
    long stepBackCount() {
        return stepBacks.get();
    }

    /** Whether the monitor is parked (it parks after the queue has been empty for a while). */
    boolean monitorParked() {
        return monitorParked;
    }

    /** Whether a worker is spinning for work right now. */
    boolean isSpinning() {
        return spinning.get() != 0;
    }

    /** Parked workers waiting to be woken, as the idle list holds them (diagnostics and tests). */
    int parkedWorkers() {
        return idle.size();
    }

    @Override
    public String toString() {
        return "ElasticExecutor[" + namePrefix + ", parallelism=" + parallelism + ", threads=" + threads.get()
                + ", awake=" + awake.get() + ", parked=" + idle.size() + ", spinning=" + spinning.get() + ", queued="
                + queue.size() + ", stepBacks=" + stepBacks.get() + ", monitor "
                + (monitorParked ? "parked" : "looking") + "]";
    }

    /**
     * A worker thread. The monitor reads {@link #current} and {@link #taskSeq} with opaque reads: the
     * worker publishes them without fences, and a stale read only delays compensation by a tick.
     */
    final class Worker extends Thread {

        final ElasticExecutor pool = ElasticExecutor.this;
        @SuppressWarnings("unused") // Accessed through STATE.
        private volatile int state = AWAKE;
        /** 1 while the monitor does not count this worker as awake because its task is stuck. */
        @SuppressWarnings("unused") // Accessed through BLOCKED.
        private volatile int blocked;
        /** The task running now, or null. Written by this worker only. */
        Runnable current;
        /** Incremented as each task starts. Written by this worker only. */
        private int taskSeq;
        /** {@link System#nanoTime()} as the current task started. Written by this worker only. */
        @SuppressWarnings("unused") // Accessed through STARTED_AT.
        private long startedAt;
        /** Monitor-owned: the sequence number seen at the last tick. */
        int seenSeq = -1;
        /** A drain this worker resubmitted from inside itself; runs next. Worker-owned. */
        Runnable next;

        Worker(String name) {
            super(name);
            setDaemon(true);
        }

        @Override
        public void run() {
            work(this);
        }

        void startTask(Runnable task) {
            STARTED_AT.setOpaque(this, System.nanoTime());
            TASK_SEQ.setOpaque(this, taskSeq + 1);
            CURRENT.setRelease(this, task);
        }

        long startedAtOpaque() {
            return (long) STARTED_AT.getOpaque(this);
        }

        /** Clears the task; true if the monitor had marked this worker blocked (now unmarked). */
        boolean endTask() {
            CURRENT.setRelease(this, null);
            return (int) BLOCKED.getOpaque(this) == 1 && BLOCKED.compareAndSet(this, 1, 0);
        }

        /** True if the monitor had marked this worker blocked (a race with the end of its task); now unmarked. */
        boolean unmarkBlocked() {
            return (int) BLOCKED.getOpaque(this) == 1 && BLOCKED.compareAndSet(this, 1, 0);
        }

        boolean markBlocked() {
            return (int) BLOCKED.getOpaque(this) == 0 && BLOCKED.compareAndSet(this, 0, 1);
        }

        Runnable currentOpaque() {
            return (Runnable) CURRENT.getOpaque(this);
        }

        int taskSeqOpaque() {
            return (int) TASK_SEQ.getOpaque(this);
        }

        int state() {
            return state;
        }

        void setState(int s) {
            state = s;
        }

        boolean casState(int expected, int s) {
            return STATE.compareAndSet(this, expected, s);
        }
    }

    private static final VarHandle STATE;
    private static final VarHandle BLOCKED;
    private static final VarHandle CURRENT;
    private static final VarHandle TASK_SEQ;
    private static final VarHandle STARTED_AT;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(Worker.class, "state", int.class);
            BLOCKED = lookup.findVarHandle(Worker.class, "blocked", int.class);
            CURRENT = lookup.findVarHandle(Worker.class, "current", Runnable.class);
            TASK_SEQ = lookup.findVarHandle(Worker.class, "taskSeq", int.class);
            STARTED_AT = lookup.findVarHandle(Worker.class, "startedAt", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
