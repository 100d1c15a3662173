package dev.synccontext.bench.capacity.load;

import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the load client saw during one measurement window: click-to-update latencies and every error by kind.
 * Filled on the client's selector thread; {@link #copy()} is taken there too.
 */
public final class Window {

    private long[] latencies = new long[4096];
    private int count;
    private long clicksSent;
    private long events;
    private long overruns;
    private long lineWaits;
    private final Map<String, Long> errors = new TreeMap<>();
    private long startNanos = System.nanoTime();
    private long endNanos;

    void latency(long nanos) {
        if (count == latencies.length) {
            latencies = Arrays.copyOf(latencies, count * 2);
        }
        latencies[count++] = nanos;
    }

    void clickSent() {
        clicksSent++;
    }

    void event() {
        events++;
    }

    void overrun() {
        overruns++;
    }

    void lineWait() {
        lineWaits++;
    }

    void error(String kind) {
        errors.merge(kind, 1L, Long::sum);
    }

    Window copy() {
        Window copy = new Window();
        copy.latencies = Arrays.copyOf(latencies, count);
        copy.count = count;
        copy.clicksSent = clicksSent;
        copy.events = events;
        copy.overruns = overruns;
        copy.lineWaits = lineWaits;
        copy.errors.putAll(errors);
        copy.startNanos = startNanos;
        copy.endNanos = System.nanoTime();
        Arrays.sort(copy.latencies);
        return copy;
    }

    /** Clicks that found every click line busy and waited on the client for one (their wait is in the latency). */
    public long lineWaits() {
        return lineWaits;
    }

    /** Updates received in order (each one a latency sample). */
    public int updates() {
        return count;
    }

    public long clicksSent() {
        return clicksSent;
    }

    /** Every event the tabs received (clicks' updates, ticks, snapshots). */
    public long events() {
        return events;
    }

    /**
     * Clicks not sent because the tab's previous click still waited for its update when the next one was
     * due: the server (or the machine) was slower than the click period. Not a correctness error; a step
     * with any is over capacity all the same.
     */
    public long overruns() {
        return overruns;
    }

    public Map<String, Long> errors() {
        return errors;
    }

    public long errorCount() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    public double seconds() {
        return (endNanos - startNanos) / 1e9;
    }

    /** The latency at quantile {@code q} (0..1) in milliseconds, {@code NaN} without samples; sorted by {@link #copy()}. */
    public double percentileMillis(double q) {
        if (count == 0) {
            return Double.NaN;
        }
        int index = (int) Math.min(count - 1, Math.max(0, Math.ceil(q * count) - 1));
        return latencies[index] / 1e6;
    }

    public double maxMillis() {
        return count == 0 ? Double.NaN : latencies[count - 1] / 1e6;
    }
}
