package dev.synccontext.bench;

import java.util.Arrays;

/**
 * Two timed runs compared robustly on a noisy machine: warm-up rounds, then rounds that time both, in an order
 * flipped every round, and report per-operation medians and the quartiles of the per-round ratio
 * (tried / base). Noise from other processes hits both halves of a round alike, so the ratio holds still where
 * absolute figures do not.
 */
final class Interleaved {

    /** One timed run: how long it took, in nanoseconds. */
    @FunctionalInterface
    interface Run {
        long nanos() throws Exception;
    }

    /** Per-operation medians in nanoseconds and the ratio's quartiles (tried / base). */
    record Result(double baseMedian, double triedMedian, double ratioP25, double ratioMedian, double ratioP75) {
    }

    private Interleaved() {
    }

    /** {@code warmups} untimed runs of each, then {@code rounds} timed rounds; a run does {@code ops} operations. */
    static Result compare(Run base, Run tried, int warmups, int rounds, double ops) throws Exception {
        for (int w = 0; w < warmups; w++) {
            base.nanos();
            tried.nanos();
        }
        double[] b = new double[rounds];
        double[] t = new double[rounds];
        double[] ratio = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            long tb;
            long tt;
            if ((r & 1) == 0) {
                tb = base.nanos();
                tt = tried.nanos();
            } else {
                tt = tried.nanos();
                tb = base.nanos();
            }
            b[r] = tb / ops;
            t[r] = tt / ops;
            ratio[r] = t[r] / b[r];
        }
        Arrays.sort(b);
        Arrays.sort(t);
        Arrays.sort(ratio);
        return new Result(b[rounds / 2], t[rounds / 2], ratio[rounds / 4], ratio[rounds / 2], ratio[3 * rounds / 4]);
    }
}
