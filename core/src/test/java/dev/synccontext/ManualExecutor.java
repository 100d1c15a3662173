package dev.synccontext;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/** An executor that only queues; the test decides when (and on which thread) tasks run. */
final class ManualExecutor implements Executor {

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

    synchronized void reject(boolean rejecting) {
        this.rejecting = rejecting;
    }

    synchronized int pending() {
        return tasks.size();
    }

    synchronized int submitted() {
        return submitted;
    }

    /** Runs queued tasks on the calling thread until none is left; returns how many ran. */
    int runAll() {
        int ran = 0;
        for (Runnable task; (task = poll()) != null; ran++) {
            task.run();
        }
        return ran;
    }

    /** Runs one queued task; false if there was none. */
    boolean runOne() {
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
