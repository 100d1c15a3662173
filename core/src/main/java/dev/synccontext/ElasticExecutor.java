package dev.synccontext;

import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

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
 *       stuck workers the next comes {@value BlockedWorkerMonitor#FAST_TICK_DIVISOR} times sooner, so
 *       work queued behind several blocked drains (each round of replacements may take more of them)
 *       gets threads within a few milliseconds, not for as long as the callbacks block.</li>
 *   <li><b>No thread it does not need.</b> Threads are created on demand and retire after
 *       {@code keepAlive} idle (default 60 s); all are daemons named {@code synccontext-N}.</li>
 *   <li><b>No application pinned.</b> A thread inherits nothing from the thread that made it (context
 *       class loader, inheritable thread-locals, access-control context: {@link LibraryThreads}); a drain
 *       runs with its context's class loader and puts the library's back as it ends, so an idle
 *       worker holds no application's loader.</li>
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
 *       tasks are waiting, in which case it goes behind them (fairness is why it resubmits). When none
 *       are, it does not even leave: it asks first ({@link #continueAfterBatch}) and goes on in place,
 *       counted as a new task, as the resubmitted one would be.</li>
 *   <li>A worker that runs out of work spins for a few tens of microseconds before it parks (one
 *       spinner at a time), so a post to an idle context that arrives meanwhile is picked up
 *       without waking a thread; a submitter wakes or starts a worker only when no worker spins
 *       and fewer than {@code parallelism} are awake.</li>
 *   <li>A drain that has caught up with a producer steps back for up to 20 µs while nothing else is
 *       queued ({@link #stepBack}), so that it follows in batches rather than one post at a time.</li>
 * </ul>
 *
 * <h2>Why not a capped cached {@code ThreadPoolExecutor}</h2>
 * The pool a reviewer would write instead is {@code new ThreadPoolExecutor(CPUs, max(256, 16 × CPUs), 60 s,
 * new SynchronousQueue<>(), daemon threads, new CallerRunsPolicy())}: the hand-off gives every task an
 * idle thread or a new one, so below its cap a blocked drain holds up no other either. Measured against
 * this pool, on the 2-CPU machine this was written on, shared with other builds (load average about 10,
 * hence the wide spreads; every iteration of this pool was faster than every one of the other):
 * <ul>
 *   <li><b>Its post path costs about 4, 5 and 50 times more</b> (means: 156 against 41 ns, 224 against
 *       42, 7,438 against 143, in the table's order). Each hand-off unparks a parked thread
 *       (it has no spinner and no next slot) or, with none idle, starts one; that is our reading, the
 *       figures are what was measured. {@code java -jar bench/jmh/target/benchmarks.jar
 *       'SeedBenchmarks.(PostSerial|PostConcurrent)|ExtraBenchmarks.(ManyContexts)' -p mode=optimized
 *       -p executor=elastic,cached-tpe -f 2 -wi 2 -w 1s -i 3 -r 1s -prof gc} ({@code cached-tpe} is this
 *       configuration, in bench/jmh's {@code BenchModes}), ns per call, the six iterations' range and
 *       {@code gc.alloc.rate.norm}:
 *       <table>
 *         <caption>elastic against capped cached ThreadPoolExecutor</caption>
 *         <tr><th>scenario</th><th>elastic</th><th>cached-tpe</th></tr>
 *         <tr><td>PostSerial</td><td>32-66 ns, 32.2 B</td><td>136-222 ns, 33.2 B</td></tr>
 *         <tr><td>PostConcurrent</td><td>33-69 ns, 32.0 B</td><td>153-386 ns, 33.1 B</td></tr>
 *         <tr><td>ManyContexts</td><td>103-230 ns, 36.7 B</td><td>6,943-8,486 ns, 96.0 B</td></tr>
 *       </table></li>
 *   <li><b>At its cap it runs the drain on the posting thread.</b> Once all its threads block, the
 *       caller-runs fallback runs the post's callback inside {@code post}, on the caller's thread,
 *       which the context promises never happens, and a callback that blocks then blocks the caller (a
 *       WebSocket or event-loop thread). A queue fallback would leave the post queued behind the
 *       blocked threads instead (not measured), which is what this pool does above {@code maxThreads}.
 *       {@code CappedCachedPoolPremiseTest} asserts both observed behaviours at a cap of 2: the TPE runs
 *       the post inside {@code post} on the test's thread, this pool queues it for a pool thread.</li>
 *   <li><b>It starts a thread per busy drain, not per blocked one.</b> In
 *       {@code BlockingCallbacksTest}'s scenario (10 of 100 contexts blocked, 1,000 posts), three runs
 *       on the loaded machine, it started 44, 23 and 37 threads to this pool's 12, 12 and 11. In exchange
 *       the posts queued behind blocked drains ran sooner on it, because it starts a thread as the task
 *       is submitted where this pool waits for its monitor to find the blocked workers (which a loaded
 *       machine stretches): p50 post-to-run 0.14, 0.007 and 0.03 ms to this pool's 24, 15.6 and 141 ms,
 *       p99 12.6, 0.9 and 16.2 ms to 27.9, 15.8 and 141 ms. {@code CappedCachedPoolPremiseTest} asserts
 *       that the TPE passes the rule below its cap and prints the rest. So the blocking rule alone does
 *       not rule it out, and on blocking latency it is ahead; its post path, its thread count and its
 *       behaviour at the cap are what this pool is for.</li>
 * </ul>
 *
 * <h2>Where each part lives</h2>
 * This class is what a context sees: {@link #execute} and {@link #stepBack} (the {@link DrainPool}
 * contract). The queue, the threads and how they find work are {@link WorkerPool}'s; the thread that
 * compensates stuck workers is {@link BlockedWorkerMonitor}; what a worker publishes for it is
 * {@link PoolWorker}'s.
 *
 * <h2>What it shows</h2>
 * As {@link ExecutorStatistics}: threads running, blocked and idle, queued drains, compensations and how
 * often it was at its cap, all read on demand or counted off the task path (the starter exports them as
 * {@code synccontext.executor.*} meters).
 *
 * <h2>Known limits</h2>
 * Above {@code maxThreads} (default {@code max(256, 16 × CPUs)}) blocked callbacks, further work
 * queues until one returns. A CPU-bound task that runs longer than a tick is also counted as blocked
 * and compensated for, so the pool may briefly run more threads than there are CPUs.
 */
final class ElasticExecutor implements Executor, DrainPool, ExecutorStatistics {

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
    private final WorkerPool pool;
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
        this.pool = new WorkerPool(namePrefix, parallelism, maxThreads, keepAliveNanos, tickNanos, spinNanos);
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
     * A drain of this pool at the end of a batch: what {@link #execute} then {@link WorkerPool}'s next
     * task would do with the resubmitted drain when no other task is queued (run it next on this thread),
     * without the drain leaving; see {@link DrainPool#continueAfterBatch}.
     */
    @Override
    public boolean continueAfterBatch(Runnable drain) {
        return Thread.currentThread() instanceof PoolWorker w && w.pool == pool && pool.restartInPlace(w, drain);
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
