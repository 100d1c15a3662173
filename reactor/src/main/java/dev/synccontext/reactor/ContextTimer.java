package dev.synccontext.reactor;

import dev.synccontext.ContextClock;
import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where delayed and periodic tasks of this module wait: on the context's own {@link ContextClock} when it
 * is not the system clock (a test kit's virtual clock: its time, not the wall's, makes them due), else on
 * the one timer thread of this module: it only posts tasks to their contexts when due, so one daemon
 * thread serves the whole JVM. Not Reactor's
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

    /** Runs {@code task} on {@code context}'s clock {@code delayNanos} from now; the handle cancels it. */
    static Future<?> schedule(RendererSyncContext context, Runnable task, long delayNanos) {
        ContextClock clock = context.clock();
        if (clock == ContextClock.system()) {
            return Holder.TIMER.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
        }
        return clock.schedule(task, Duration.ofNanos(delayNanos));
    }

    /** Now, on {@code context}'s clock. */
    static long nanoTime(RendererSyncContext context) {
        return context.clock().nanoTime();
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
