package dev.synccontext;

/**
 * What the default executor's threads are doing, read on demand with the JDK only. The executor every
 * context drains on unless given another ({@code RendererSyncContext.defaultExecutor()}) implements it;
 * test for it with {@code executor instanceof ExecutorStatistics}. {@link dev.synccontext.micrometer.ExecutorMetrics}
 * exports it to Micrometer.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Nothing on the task path.</b> The thread counts are read from the workers' own published
 *       fields when asked (one pass over at most {@link #maxThreads()} threads); the two counters are
 *       incremented only where the pool already does something rare (compensating a stuck worker, finding
 *       no thread to start), never per task.</li>
 *   <li><b>A snapshot, not a transaction.</b> Each method reads the pool at its own moment: running plus
 *       blocked plus idle may differ from {@link #threads()} by the threads that started or retired
 *       between two reads.</li>
 * </ul>
 */
public interface ExecutorStatistics {

    /** Workers the pool keeps running at once when none is stuck (the CPUs, for the default executor). */
    int parallelism();

    /** The cap on threads: {@code max(256, 16 × CPUs)} for the default executor. */
    int maxThreads();

    /** Threads alive now (started and not retired). */
    int threads();

    /** Threads running a task (a drain) that the pool still counts as making progress. */
    int runningThreads();

    /**
     * Threads running a task that has stayed in one task for more than a tick: a blocked callback (or a
     * long CPU-bound batch). The pool no longer counts them and gives queued work other threads.
     */
    int blockedThreads();

    /** Threads alive and running no task: searching, spinning or parked until work comes or they retire. */
    int idleThreads();

    /** Tasks (drains) waiting in the pool's queue for a thread. */
    int queuedTasks();

    /** How many times a worker stuck in one task was compensated for (another thread given the queued work). */
    long compensations();

    /**
     * How many times queued work wanted another thread and found none to wake or start because
     * {@link #maxThreads()} threads were alive and busy: above zero, work waits for a blocked callback to
     * return. While the pool stays at its cap, each submission and each look of its monitor (every tick)
     * counts, so the rate says how long it stayed there, not how many callbacks waited.
     */
    long capReached();
}
