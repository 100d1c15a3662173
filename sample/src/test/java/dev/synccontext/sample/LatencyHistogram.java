package dev.synccontext.sample;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Request latencies in logarithmic buckets (each 2 % wider than the last, 1 µs to ~50 s): fixed
 * memory, lock-free, percentiles accurate to 2 %. Allocated before a soak's heap baseline so it does
 * not count as per-session memory.
 */
final class LatencyHistogram {

    private static final double GROWTH = 1.02;
    private static final int BUCKETS = (int) Math.ceil(Math.log(50e6) / Math.log(GROWTH)) + 2;

    private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);
    private final LongAdder total = new LongAdder();
    private volatile long maxMicros;

    void record(long nanos) {
        long micros = Math.max(1, nanos / 1_000);
        int bucket = (int) Math.min(BUCKETS - 1, Math.ceil(Math.log(micros) / Math.log(GROWTH)));
        counts.incrementAndGet(bucket);
        total.increment();
        if (micros > maxMicros) {
            synchronized (this) {
                maxMicros = Math.max(maxMicros, micros);
            }
        }
    }

    long count() {
        return total.sum();
    }

    /** The latency (ms) under which {@code percentile} % of the recorded requests fell. */
    double percentileMillis(double percentile) {
        long n = count();
        if (n == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(n * percentile / 100.0);
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += counts.get(i);
            if (seen >= rank) {
                return Math.pow(GROWTH, i) / 1_000.0;
            }
        }
        return maxMillis();
    }

    double maxMillis() {
        return maxMicros / 1_000.0;
    }

    @Override
    public String toString() {
        return String.format("n=%d p50=%.2f ms p99=%.2f ms max=%.1f ms", count(), percentileMillis(50),
                percentileMillis(99), maxMillis());
    }
}
