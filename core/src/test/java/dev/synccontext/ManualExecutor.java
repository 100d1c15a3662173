package dev.synccontext;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * An executor that only queues; the test decides when (and on which thread) tasks run, so a test of
 * what a context hands to its executor is deterministic. Its verbs are the test kit's
 * {@code DeterministicExecutor}'s ({@link #runNext}, {@link #runUntilIdle}, {@link #pending}, {@link #submitted});
 * the kit's also picks among queued tasks by seed and bounds a run, which core's tests do not need. Shared with
 * the other modules' tests through core's test jar. Thread-safe.
 */
public final class ManualExecutor implements Executor {

    private final Queue<Runnable> tasks = new ArrayDeque<>();
    private int submitted;
    private boolean rejecting;

    @Override
    public synchronized void execute(Runnable task) {
        if (rejecting) {
            throw new RejectedExecutionException("ManualExecutor is rejecting");
        }
        submitted++;
        tasks.add(task);
    }

    /** While {@code rejecting}, {@link #execute} throws {@link RejectedExecutionException}. */
    public synchronized void reject(boolean rejecting) {
        this.rejecting = rejecting;
    }

    /** Tasks queued and not yet run. */
    public synchronized int pending() {
        return tasks.size();
    }

    /** Tasks accepted since creation. */
    public synchronized int submitted() {
        return submitted;
    }

    /** Runs queued tasks on the calling thread until none is left; returns how many ran. */
    public int runUntilIdle() {
        int ran = 0;
        for (Runnable task; (task = poll()) != null; ran++) {
            task.run();
        }
        return ran;
    }

    /** Runs one queued task; false if there was none. */
    public boolean runNext() {
        Runnable task = poll();
        if (task == null) {
            return false;
        }
        task.run();
        return true;
    }

    private synchronized Runnable poll() {
        return tasks.poll();
    }
}
