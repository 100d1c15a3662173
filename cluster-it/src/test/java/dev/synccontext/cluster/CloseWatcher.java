package dev.synccontext.cluster;

import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

/**
 * Records when each watched context is seen closed, sampling every 0.1 ms on a thread of its own, so a
 * test can measure how long after an event (a session ending, its last request) a node closed it.
 */
final class CloseWatcher implements AutoCloseable {

    private final List<RendererSyncContext> watched = new CopyOnWriteArrayList<>();
    private final Map<RendererSyncContext, Long> closedAt = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean stopped;

    CloseWatcher() {
        thread = new Thread(this::watch, "close-watcher");
        thread.setDaemon(true);
        thread.start();
    }

    void watch(RendererSyncContext context) {
        watched.add(context);
    }

    private void watch() {
        while (!stopped) {
            for (RendererSyncContext context : watched) {
                if (!closedAt.containsKey(context) && context.isClosed()) {
                    closedAt.put(context, System.nanoTime());
                }
            }
            LockSupport.parkNanos(100_000); // sampling period: the measurement's resolution
        }
    }

    /** When {@code context} was seen closed ({@link System#nanoTime()}), waiting up to {@code timeout}. */
    long closedAt(RendererSyncContext context, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Long at;
        while ((at = closedAt.get(context)) == null) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("context " + context.name() + " not closed within " + timeout);
            }
            LockSupport.parkNanos(1_000_000);
        }
        return at;
    }

    @Override
    public void close() throws InterruptedException {
        stopped = true;
        thread.join(5_000);
    }
}
