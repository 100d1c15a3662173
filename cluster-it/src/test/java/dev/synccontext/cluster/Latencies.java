package dev.synccontext.cluster;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Durations measured by a test, summarized as the closing note reports them (p50, p99, max). */
final class Latencies {

    private final List<Long> nanos = Collections.synchronizedList(new ArrayList<>());

    void add(long durationNanos) {
        nanos.add(durationNanos);
    }

    int count() {
        return nanos.size();
    }

    double percentileMillis(double percentile) {
        List<Long> sorted;
        synchronized (nanos) {
            sorted = new ArrayList<>(nanos);
        }
        Collections.sort(sorted);
        int index = (int) Math.ceil(percentile / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index))) / 1e6;
    }

    String summary() {
        return String.format("n=%d p50=%.1f ms p99=%.1f ms max=%.1f ms", count(), percentileMillis(50),
                percentileMillis(99), percentileMillis(100));
    }
}
