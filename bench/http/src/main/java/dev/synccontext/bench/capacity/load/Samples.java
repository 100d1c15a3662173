package dev.synccontext.bench.capacity.load;

import java.util.Arrays;

/**
 * Every sample of one kind (nanoseconds) in a window, kept whole so that percentiles are exact and windows
 * of several selector loops merge exactly: the merged samples are the union, their percentiles those of the
 * union, never an average of percentiles. Filled on one selector thread; {@link #sorted()} and
 * {@link #merge} make copies that are read elsewhere.
 */
final class Samples {

    private long[] nanos;
    private int count;

    Samples() {
        this(new long[1024], 0);
    }

    private Samples(long[] nanos, int count) {
        this.nanos = nanos;
        this.count = count;
    }

    void add(long sample) {
        if (count == nanos.length) {
            nanos = Arrays.copyOf(nanos, count * 2);
        }
        nanos[count++] = sample;
    }

    int count() {
        return count;
    }

    /** A sorted copy, for the percentiles. */
    Samples sorted() {
        long[] copy = Arrays.copyOf(nanos, count);
        Arrays.sort(copy);
        return new Samples(copy, count);
    }

    /** The union of {@code parts}, sorted. */
    static Samples merge(Iterable<Samples> parts) {
        int total = 0;
        for (Samples part : parts) {
            total += part.count;
        }
        long[] all = new long[total];
        int at = 0;
        for (Samples part : parts) {
            System.arraycopy(part.nanos, 0, all, at, part.count);
            at += part.count;
        }
        Arrays.sort(all);
        return new Samples(all, total);
    }

    /** The sample at quantile {@code q} (0..1) in milliseconds, {@code NaN} without samples; on a sorted copy. */
    double percentileMillis(double q) {
        if (count == 0) {
            return Double.NaN;
        }
        int index = (int) Math.min(count - 1, Math.max(0, Math.ceil(q * count) - 1));
        return nanos[index] / 1e6;
    }

    /** The largest sample in milliseconds, {@code NaN} without samples; on a sorted copy. */
    double maxMillis() {
        return count == 0 ? Double.NaN : nanos[count - 1] / 1e6;
    }
}
