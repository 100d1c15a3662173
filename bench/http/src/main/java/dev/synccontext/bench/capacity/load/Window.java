package dev.synccontext.bench.capacity.load;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the load client saw during one measurement window: click-to-update latencies, how late the client
 * itself sent each click, and every error by kind. Filled on one selector thread; {@link #copy()} is taken
 * there too. The windows of several selector loops {@link #merge} into one whose counts are their sums and
 * whose percentiles are those of all their samples together.
 */
public final class Window {

    private Samples latencies = new Samples();
    private Samples sendLags = new Samples();
    private long clicksSent;
    private long events;
    private long overruns;
    private long lineWaits;
    private final Map<String, Long> errors = new TreeMap<>();
    private long startNanos = System.nanoTime();
    private long endNanos;

    void latency(long nanos) {
        latencies.add(nanos);
    }

    /** A click's request was handed to its socket {@code nanos} after the click was due. */
    void sendLag(long nanos) {
        sendLags.add(nanos);
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
        copy.latencies = latencies.sorted();
        copy.sendLags = sendLags.sorted();
        copy.clicksSent = clicksSent;
        copy.events = events;
        copy.overruns = overruns;
        copy.lineWaits = lineWaits;
        copy.errors.putAll(errors);
        copy.startNanos = startNanos;
        copy.endNanos = System.nanoTime();
        return copy;
    }

    /** One window of {@code parts} (ended windows, one per selector loop): counts add, samples unite. */
    static Window merge(List<Window> parts) {
        Window merged = new Window();
        merged.latencies = Samples.merge(parts.stream().map(part -> part.latencies).toList());
        merged.sendLags = Samples.merge(parts.stream().map(part -> part.sendLags).toList());
        merged.startNanos = Long.MAX_VALUE;
        merged.endNanos = Long.MIN_VALUE;
        for (Window part : parts) {
            merged.clicksSent += part.clicksSent;
            merged.events += part.events;
            merged.overruns += part.overruns;
            merged.lineWaits += part.lineWaits;
            part.errors.forEach((kind, count) -> merged.errors.merge(kind, count, Long::sum));
            merged.startNanos = Math.min(merged.startNanos, part.startNanos);
            merged.endNanos = Math.max(merged.endNanos, part.endNanos);
        }
        return merged;
    }

    /** Clicks that found every click line busy and waited on the client for one (their wait is in the latency). */
    public long lineWaits() {
        return lineWaits;
    }

    /** Updates received in order (each one a latency sample). */
    public int updates() {
        return latencies.count();
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
        return latencies.percentileMillis(q);
    }

    public double maxMillis() {
        return latencies.maxMillis();
    }

    /**
     * The client's own lag at quantile {@code q} (0..1; 1 is the max) in milliseconds: from a click being due to its
     * request being handed to the socket: a timer turn late or a selector thread busy with other sockets (the
     * client's own delay), or a wait for a free click line (which the server's answers to earlier clicks free).
     * {@code NaN} without samples.
     */
    public double sendLagMillis(double q) {
        return sendLags.percentileMillis(q);
    }
}
