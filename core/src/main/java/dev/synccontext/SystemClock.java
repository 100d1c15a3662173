package dev.synccontext;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@link ContextClock#system()}: {@link System#nanoTime()}, and timers on one daemon thread for the
 * JVM ({@code synccontext-timer}), started on first use and gone after a minute with nothing scheduled;
 * it inherits nothing from the thread that started it ({@link LibraryThreads}).
 *
 * <p>One thread is enough for what runs here: forced closes are {@code closeNow()}, which never waits
 * for a callback that is still running, and idle eviction releases contexts without blocking. So a
 * session that expires with a hung callback costs no thread and never parks a shared one (the common
 * pool, or the JDK's {@code CompletableFuture} delay thread that every library's {@code orTimeout}
 * shares). What else runs here: the observers and the dependents of the futures that
 * {@code closeNow()} cancels, as on any thread that completes a future.
 */
final class SystemClock implements ContextClock {

    static final SystemClock INSTANCE = new SystemClock();

    private SystemClock() {
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public Future<?> schedule(Runnable task, Duration delay) {
        return Timer.INSTANCE.schedule(new Logged(task), saturatedNanos(delay), TimeUnit.NANOSECONDS);
    }

    /**
     * A timer task whose failure is logged: the thread pool would keep it in a future no one reads, so a
     * timer that posts to a context closed meanwhile would be refused without a word. The failure stays in
     * the future too. A refusal's message names the context.
     */
    private static final class Logged implements Runnable {

        private static final System.Logger LOG = System.getLogger(ContextClock.class.getName());

        private final Runnable task;

        Logged(Runnable task) {
            this.task = task;
        }

        @Override
        public void run() {
            try {
                task.run();
            } catch (RuntimeException | Error failure) {
                LOG.log(System.Logger.Level.ERROR, "A timer task on " + INSTANCE + " failed (" + task + ")", failure);
                throw failure;
            }
        }
    }

    @Override
    public boolean await(CompletableFuture<?> done, long timeoutNanos) throws InterruptedException {
        try {
            done.get(Math.max(0, timeoutNanos), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException notYet) {
            return false;
        } catch (ExecutionException failed) {
            return true;
        }
    }

    static long saturatedNanos(Duration d) {
        try {
            return Math.max(0, d.toNanos());
        } catch (ArithmeticException tooLong) {
            return d.isNegative() ? 0 : Long.MAX_VALUE;
        }
    }

    @Override
    public String toString() {
        return "ContextClock.system()";
    }

    /** Holder: the thread pool exists only once a timer is set. */
    private static final class Timer {

        static final ScheduledThreadPoolExecutor INSTANCE = create();

        private static ScheduledThreadPoolExecutor create() {
            ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1,
                    task -> LibraryThreads.daemon("synccontext-timer", task));
            timer.setKeepAliveTime(1, TimeUnit.MINUTES);
            timer.allowCoreThreadTimeOut(true);
            timer.setRemoveOnCancelPolicy(true);
            return timer;
        }
    }
}
