package dev.synccontext.registry;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Runs the registries' forced closes when their {@code shutdownTimeout} has passed, on one daemon
 * thread for the JVM ({@code synccontext-forced-close}), started on first use and gone after a minute
 * with nothing scheduled.
 *
 * <p>One thread is enough because a forced close is {@code closeNow()}, which never waits for a
 * callback that is still running: a session that expires with a hung callback costs no thread, and
 * never parks a shared one (the common pool, or the JDK's {@code CompletableFuture} delay thread
 * that every library's {@code orTimeout} shares). What else runs here: the observers and the
 * dependents of the futures that {@code closeNow()} cancels, as on any thread that completes a future.
 */
final class ForcedCloses {

    private ForcedCloses() {
    }

    /** Runs {@code forcedClose} once {@code delayNanos} have passed. */
    static void after(long delayNanos, Runnable forcedClose) {
        Scheduler.INSTANCE.schedule(forcedClose, delayNanos, TimeUnit.NANOSECONDS);
    }

    private static final class Scheduler {

        static final ScheduledThreadPoolExecutor INSTANCE = create();

        private static ScheduledThreadPoolExecutor create() {
            ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, task -> {
                Thread thread = new Thread(task, "synccontext-forced-close");
                thread.setDaemon(true);
                return thread;
            });
            scheduler.setKeepAliveTime(1, TimeUnit.MINUTES);
            scheduler.allowCoreThreadTimeOut(true);
            scheduler.setRemoveOnCancelPolicy(true);
            return scheduler;
        }
    }
}
