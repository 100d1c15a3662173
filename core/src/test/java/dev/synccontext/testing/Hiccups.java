package dev.synccontext.testing;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How long this JVM's threads were kept from running while a test measured a rate: a thread that asks to wake
 * every {@value #TICK_MILLIS} ms and records by how much each wake-up came late (the idea of jHiccup). A loaded
 * machine stops every thread of a process for that long, the client and the server under test alike, so what
 * they do in that time arrives at once afterwards. A test that counts events per second adds the longest
 * hiccup to its window: the bound stays tight on a quiet machine and follows the machine when it stalls.
 *
 * <p>Start it before the measured phase and close it after; {@link #longest()} is the longest late wake-up seen.
 */
public final class Hiccups implements AutoCloseable {

    static final long TICK_MILLIS = 5;

    private final Thread probe;
    private volatile boolean running = true;
    private volatile long longestNanos;

    private Hiccups(String name) {
        probe = new Thread(this::run, "hiccups-" + name);
        probe.setDaemon(true);
        probe.start();
    }

    /** Starts measuring now. */
    public static Hiccups start(String name) {
        return new Hiccups(name);
    }

    private void run() {
        long tick = TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS);
        while (running) {
            long before = System.nanoTime();
            LockSupport.parkNanos(tick);
            long late = System.nanoTime() - before - tick;
            if (late > longestNanos) {
                longestNanos = late;
            }
        }
    }

    /** The longest time the probe's wake-up came late so far. */
    public Duration longest() {
        return Duration.ofNanos(longestNanos);
    }

    @Override
    public void close() {
        running = false;
        LockSupport.unpark(probe);
        try {
            probe.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
