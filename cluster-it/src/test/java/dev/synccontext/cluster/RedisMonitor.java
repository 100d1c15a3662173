package dev.synccontext.cluster;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Records every command Redis executes (MONITOR) on a connection of its own, so a test can count the
 * writes that touch one hash field. Every recorded line is Redis's own rendering of one command.
 */
final class RedisMonitor implements AutoCloseable {

    private final RedisClient client;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Thread reader;
    private volatile boolean closed;

    RedisMonitor(int port) {
        client = new RedisClient(port);
        Object ok = client.command("MONITOR");
        if (!"OK".equals(ok)) {
            throw new IllegalStateException("MONITOR answered " + ok);
        }
        reader = new Thread(this::readAll, "redis-monitor");
        reader.setDaemon(true);
        reader.start();
    }

    private void readAll() {
        while (!closed) {
            try {
                lines.add(String.valueOf(client.read()));
            } catch (RuntimeException connectionClosed) {
                return;
            }
        }
    }

    /** Commands recorded so far that mention {@code text}. */
    long count(String text) {
        return lines.stream().filter(line -> line.contains(text)).count();
    }

    /**
     * Waits until every command Redis executed before this call is recorded: sends a unique ECHO on
     * {@code other} and waits for the monitor to see it (MONITOR reports commands in execution order).
     */
    void sync(RedisClient other) {
        String marker = "monitor-sync-" + System.nanoTime();
        other.command("ECHO", marker);
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (count(marker) == 0) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("MONITOR did not report " + marker + " within 10 s");
            }
            Thread.onSpinWait();
        }
    }

    /** Commands recorded so far. */
    List<String> lines() {
        return List.copyOf(lines);
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        client.close();
        reader.join(5_000);
    }
}
