package dev.synccontext.test;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/**
 * An executor that only queues: a task runs when the test says so ({@link #runNext()},
 * {@link #runUntilIdle()}), on the test's thread. Contexts built by a {@link SyncContextTestKit} drain on
 * it, so what "later" means in a test is decided by the test.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Nothing runs by itself.</b> {@link #execute} never runs the task and starts no thread.</li>
 *   <li><b>Order.</b> Without a seed, tasks run in submission order (FIFO). With a seed (the
 *       {@link Explorer}), each step runs one of the queued tasks chosen by a {@link SplittableRandom} of
 *       that seed: the same seed and the same test give the same order, every run. A context's own
 *       callbacks stay in their FIFO order either way (its drain runs them); what varies is which
 *       context, or which outside task, goes next.</li>
 *   <li><b>Where from.</b> Each task remembers the stack it was submitted from ({@link #pendingSites()}),
 *       so a leak is reported with its origin.</li>
 *   <li><b>Thread-safe.</b> Any thread may submit; tasks run on whichever thread calls the run methods
 *       (one at a time is the intended use).</li>
 * </ul>
 */
public final class DeterministicExecutor implements Executor {

    /** {@link #runUntilIdle()} gives up after this many tasks: work that re-posts itself forever. */
    public static final int MAX_TASKS_PER_RUN = 100_000;

    private final @Nullable SplittableRandom random;
    private final List<Task> queue = new ArrayList<>();
    private long submitted;
    private long ran;

    /** A FIFO executor. */
    public DeterministicExecutor() {
        this.random = null;
    }

    /** An executor that runs queued tasks in an order chosen by {@code seed}. */
    public DeterministicExecutor(long seed) {
        this.random = new SplittableRandom(seed);
    }

    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        Task queued = new Task(task, SubmitSite.here());
        synchronized (this) {
            submitted++;
            queue.add(queued);
        }
    }

    /** Runs one queued task (the oldest, or the seed's choice) on the calling thread; false if none. */
    public boolean runNext() {
        Task task;
        synchronized (this) {
            if (queue.isEmpty()) {
                return false;
            }
            task = queue.remove(random == null ? 0 : random.nextInt(queue.size()));
            ran++;
        }
        task.runnable.run();
        return true;
    }

    /**
     * Runs queued tasks, including those they queue, until none is left.
     *
     * @return how many ran
     * @throws IllegalStateException after {@value #MAX_TASKS_PER_RUN} tasks (something re-posts itself
     *     forever)
     */
    public int runUntilIdle() {
        int count = 0;
        while (runNext()) {
            if (++count >= MAX_TASKS_PER_RUN) {
                throw new IllegalStateException("Still busy after " + count + " tasks: some callback keeps"
                        + " queueing more work (a post that re-posts itself forever?)");
            }
        }
        return count;
    }

    /** Tasks queued and not yet run. */
    public synchronized int pending() {
        return queue.size();
    }

    /** Tasks accepted since creation. */
    public synchronized long submitted() {
        return submitted;
    }

    /** Tasks run since creation. */
    public synchronized long ran() {
        return ran;
    }

    /** Where each queued task was submitted, oldest first, as text. */
    public synchronized List<String> pendingSites() {
        return queue.stream().map(task -> task.site.toString()).toList();
    }

    synchronized List<SubmitSite> pendingSubmitSites() {
        return queue.stream().map(task -> task.site).toList();
    }

    /** A queued task and where it came from. */
    private record Task(Runnable runnable, SubmitSite site) {
    }
}
