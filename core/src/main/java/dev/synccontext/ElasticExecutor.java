package dev.synccontext;

import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The default executor of every context: a pool of daemon threads that runs as many drains at once as
 * there are CPUs, and adds a thread when a running drain has been stuck in one task for a while, so a
 * callback that blocks (a JDBC call, an HTTP call) never holds up the drains of other contexts.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Every task runs.</b> A task accepted by {@link #execute} runs exactly once. {@code execute}
 *       never throws for a non-null task: above {@code maxThreads} tasks wait in the queue. A task that
 *       throws goes to the thread's uncaught-exception handler; the worker goes on.</li>
 *   <li><b>A blocked task costs one thread, not the pool.</b> While work is queued, the monitor looks
 *       every {@code tick} (default 2 ms). A worker still in the task of its last look stops counting
 *       towards the parallelism, and queued work gets other workers. After a look that found stuck
 *       workers, the next comes {@value ElasticMonitor#FAST_TICK_DIVISOR} times sooner.</li>
 *   <li><b>No thread it does not need.</b> Threads start on demand and retire after {@code keepAlive}
 *       idle (default 60 s); all are daemons named {@code synccontext-N}.</li>
 *   <li><b>No application pinned.</b> A thread inherits nothing from its maker ({@link LibraryThreads});
 *       a drain puts the library's class loader back as it ends.</li>
 * </ul>
 *
 * <h2>Known limits</h2>
 * Above {@code maxThreads} (default {@code max(256, 16 × CPUs)}) blocked callbacks, further work queues
 * until one returns. A CPU-bound task longer than a tick counts as blocked too, so the pool may briefly
 * run more threads than there are CPUs.
 *
 * <h2>Rejected alternatives</h2>
 * Measured in {@code docs/2026-12-02-default-executor-alternatives.md}:
 * <ul>
 *   <li>The common pool: {@code CPUs - 1} workers, and a blocking callback holds one of them.</li>
 *   <li>A virtual thread per drain: pinned while blocked in places, none on Java 17, a thread per drain.</li>
 *   <li>A capped cached {@code ThreadPoolExecutor}: a post costs 4-50× more, and at its cap it runs the
 *       callback inside {@code post}, on the caller's thread.</li>
 * </ul>
 * What keeps a hand-off cheap here: a resubmitted drain runs next on its own thread
 * ({@link #continueAfterBatch}); one idle worker spins before it parks; a drain right behind a producer
 * steps back ({@link #stepBack}). The queue and the threads are {@link ElasticPool}'s, the stuck-worker
 * check {@link ElasticMonitor}'s; the counts are read as {@link ExecutorStatistics}.
 */
final class ElasticExecutor implements Executor, ElasticDrainHints, ExecutorStatistics {

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

    private final String namePrefix;
    private final ElasticPool pool;
    private final AtomicLong stepBacks = new AtomicLong();

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
        this.pool = new ElasticPool(namePrefix, parallelism, maxThreads, keepAliveNanos, tickNanos, spinNanos);
    }

    @Override
    public void execute(Runnable task) {
        pool.execute(Objects.requireNonNull(task, "task"));
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
    @Override
    public boolean stepBack() {
        if (!pool.isQueueEmpty()) {
            return false;
        }
        stepBacks.incrementAndGet();
        long deadline = System.nanoTime() + STEP_BACK_NANOS;
        do {
            for (int i = 0; i < 16; i++) {
                Thread.onSpinWait();
            }
        } while (System.nanoTime() - deadline < 0 && pool.isQueueEmpty());
        return true;
    }

    /**
     * A drain of this pool at the end of a batch: what {@link #execute} then {@link ElasticPool}'s next
     * task would do with the resubmitted drain when no other task is queued (run it next on this thread),
     * without the drain leaving; see {@link ElasticDrainHints#continueAfterBatch}.
     */
    @Override
    public boolean continueAfterBatch(Runnable drain) {
        return Thread.currentThread() instanceof ElasticWorker w && w.pool == pool && pool.restartInPlace(w, drain);
    }

    // ---------------------------------------------------------------- observation (tests, diagnostics)

    /** Threads alive in this pool (workers, not the monitor). */
    int threadCount() {
        return pool.threadCount();
    }

    /** Workers counted as awake and not blocked: 0 once every worker has parked or retired. */
    int awakeCount() {
        return pool.awakeCount();
    }

    /** How many times a worker stuck in one task was compensated for. */
    long compensationCount() {
        return pool.monitor().compensationCount();
    }

    /** How many times a drain stepped back from a producer ({@link #stepBack}). */
    long stepBackCount() {
        return stepBacks.get();
    }

    /** Whether the monitor is parked (it parks after the queue has been empty for a while). */
    boolean monitorParked() {
        return pool.monitor().isParked();
    }

    /** Whether a worker is spinning for work right now. */
    boolean isSpinning() {
        return pool.isSpinning();
    }

    /** Parked workers waiting to be woken, as the idle list holds them (diagnostics and tests). */
    int parkedWorkers() {
        return pool.parkedWorkers();
    }

    // ---------------------------------------------------------------- ExecutorStatistics (read on demand)

    @Override
    public int parallelism() {
        return pool.parallelism();
    }

    @Override
    public int maxThreads() {
        return pool.maxThreads();
    }

    @Override
    public int threads() {
        return pool.threadCount();
    }

    @Override
    public int runningThreads() {
        return pool.runningWorkers(false);
    }

    @Override
    public int blockedThreads() {
        return pool.runningWorkers(true);
    }

    @Override
    public int idleThreads() {
        return Math.max(0, pool.threadCount() - pool.runningWorkers(false) - pool.runningWorkers(true));
    }

    @Override
    public int queuedTasks() {
        return pool.queued();
    }

    @Override
    public long compensations() {
        return pool.monitor().compensationCount();
    }

    @Override
    public long capReached() {
        return pool.capReachedCount();
    }

    @Override
    public String toString() {
        return "ElasticExecutor[" + namePrefix + ", parallelism=" + pool.parallelism() + ", threads="
                + pool.threadCount() + ", awake=" + pool.awakeCount() + ", parked=" + pool.parkedWorkers()
                + ", spinning=" + (pool.isSpinning() ? 1 : 0) + ", queued=" + pool.queued() + ", stepBacks="
                + stepBacks.get() + ", monitor " + (pool.monitor().isParked() ? "parked" : "looking") + "]";
    }
}
