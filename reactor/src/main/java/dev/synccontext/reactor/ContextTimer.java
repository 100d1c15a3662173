package dev.synccontext.reactor;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one timer thread behind every delayed and periodic task of this module: it only posts tasks to
 * their contexts when due, so one daemon thread serves the whole JVM. Not Reactor's
 * {@code Schedulers.parallel()}: an application may dispose Reactor's shared schedulers (tests reset
 * them), and delays on a context must not die with them. Cancelled delays are removed at once, so a
 * pipeline that keeps cancelling timeouts leaves nothing behind.
 */
final class ContextTimer {

    private ContextTimer() {
    }

    static ScheduledExecutorService shared() {
        return Holder.TIMER;
    }

    /** Started on first use (class initialization is the lazy, thread-safe part). */
    private static final class Holder {
        static final ScheduledExecutorService TIMER = create();

        private static ScheduledExecutorService create() {
            AtomicInteger count = new AtomicInteger();
            ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, task -> {
                Thread thread = new Thread(task, "synccontext-reactor-timer" + (count.getAndIncrement() == 0 ? "" : "-" + count.get()));
                thread.setDaemon(true);
                return thread;
            });
            timer.setRemoveOnCancelPolicy(true);
            return timer;
        }
    }
}
