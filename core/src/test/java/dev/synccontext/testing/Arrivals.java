package dev.synccontext.testing;

import java.util.ArrayList;
import java.util.List;

/**
 * Figures over sorted arrival instants ({@link System#nanoTime()} stamps, say of going-aways or reconnects), for
 * tests that assert a pace: the most in any sliding window, and the counts per bucket a test prints beside them.
 * Shared through core's test jar.
 */
public final class Arrivals {

    private Arrivals() {
    }

    /** The most sorted instants within any window of {@code window} nanoseconds. */
    public static int maxInWindow(List<Long> sorted, long window) {
        int max = 0;
        int from = 0;
        for (int to = 0; to < sorted.size(); to++) {
            while (sorted.get(to) - sorted.get(from) >= window) {
                from++;
            }
            max = Math.max(max, to - from + 1);
        }
        return max;
    }

    /** How many of the sorted instants fall in each {@code bucket} nanoseconds from the first. */
    public static List<Integer> histogram(List<Long> sorted, long bucket) {
        List<Integer> counts = new ArrayList<>();
        for (long instant : sorted) {
            int at = (int) ((instant - sorted.get(0)) / bucket);
            while (counts.size() <= at) {
                counts.add(0);
            }
            counts.set(at, counts.get(at) + 1);
        }
        return counts;
    }
}
