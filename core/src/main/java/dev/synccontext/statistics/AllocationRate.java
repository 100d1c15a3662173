package dev.synccontext.statistics;

import java.util.concurrent.TimeUnit;

/**
 * Recent bytes per second over a cumulative byte counter, without resetting it (a reset would race with
 * concurrent adds and lose them): it keeps two marks (byte count and time) and reports the rate since
 * the older one, so the window spans between one and two {@link #WINDOW_NANOS} when read at least once
 * per window (a scrape reads it every few seconds). A quiet period reads as 0, not as the last busy rate.
 *
 * <p>A rate, unlike a mean per callback, adds up: the sum of every instance's gauge is the fleet's
 * allocation rate. Thread-safe; called on reads only, never on the hot path.
 */
final class AllocationRate {

    /** How far back a read looks, at least (and at most twice this). */
    static final long WINDOW_NANOS = TimeUnit.SECONDS.toNanos(60);

    private long olderBytes;
    private long olderNanos;
    private long newerBytes;
    private long newerNanos;

    /** A rate starting from zero bytes at {@code startNanos} ({@link System#nanoTime()} scale). */
    AllocationRate(long startNanos) {
        this.olderNanos = startNanos;
        this.newerNanos = startNanos;
    }

    /** Bytes per second between the older mark and {@code nowNanos}, given the counter's value now. */
    synchronized double perSecond(long bytes, long nowNanos) {
        if (nowNanos - newerNanos >= WINDOW_NANOS) {
            olderBytes = newerBytes;
            olderNanos = newerNanos;
            newerBytes = bytes;
            newerNanos = nowNanos;
        }
        long elapsed = nowNanos - olderNanos;
        return elapsed <= 0 ? 0 : (bytes - olderBytes) * (double) TimeUnit.SECONDS.toNanos(1) / elapsed;
    }
}
