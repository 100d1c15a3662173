package dev.synccontext.scenario;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/** An executor that only queues; the test decides when tasks run (on the test's thread). */
final class ManualExecutor implements Executor {

    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();

    @Override
    public synchronized void execute(Runnable task) {
        tasks.add(task);
    }

    synchronized int pending() {
        return tasks.size();
    }

    /** Runs queued tasks (and the ones they queue) until none is left; returns how many ran. */
    int runAll() {
        int ran = 0;
        for (Runnable task; (task = next()) != null; ran++) {
            task.run();
        }
        return ran;
    }

    private synchronized Runnable next() {
        return tasks.poll();
    }
}
