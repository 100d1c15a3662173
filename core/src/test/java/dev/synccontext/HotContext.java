package dev.synccontext;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * A hot context for fairness tests: one callback that re-posts itself until it has run {@value #RUNS} times, and
 * on its second run hands {@code elsewhere} one task (the work that must not wait for all of hot's runs).
 */
final class HotContext {

    /** How many times the hot callback runs. */
    static final int RUNS = 1_000;

    private HotContext() {
    }

    /**
     * Runs the hot callback on {@code hot} and returns how many times it had run when the task handed to
     * {@code elsewhere} ran; waits at most {@code timeout} for hot's last run and again for that task.
     */
    static int runsBeforeTheOtherTask(RendererSyncContext hot, Executor elsewhere, Duration timeout)
            throws Exception {
        int[] hotRuns = {0}; // written inside hot only
        CompletableFuture<Integer> hotRunsWhenOtherRan = new CompletableFuture<>();
        CompletableFuture<Void> hotDone = new CompletableFuture<>();
        Runnable[] step = new Runnable[1];
        step[0] = () -> {
            if (++hotRuns[0] == 2) {
                elsewhere.execute(() -> hotRunsWhenOtherRan.complete(hotRuns[0]));
            }
            if (hotRuns[0] < RUNS) {
                hot.post(step[0]);
            } else {
                hotDone.complete(null);
            }
        };
        hot.post(step[0]);
        hotDone.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        return hotRunsWhenOtherRan.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }
}
