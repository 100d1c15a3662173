package dev.synccontext.bench;

import dev.synccontext.RendererSyncContext;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

/**
 * The {@link InstrumentationOverheadBenchmark} comparison made robust against a noisy machine: one JVM
 * runs the {@code InvokeAsyncReady} loop on an un-instrumented context and on an instrumented one in
 * alternating rounds of 20,000 calls (order flipped every round, after 300 warm-up round pairs), and
 * reports per-call medians and the median of the per-round ratios. Noise from other processes hits
 * both halves of a round alike, so the ratio holds still where absolute figures do not.
 *
 * <p>Usage: {@code java -cp bench/jmh/target/benchmarks.jar dev.synccontext.bench.InstrumentationOverheadInterleaved
 * [instrumentation, default micrometer] [rounds, default 300]}.
 */
public final class InstrumentationOverheadInterleaved {

    private static final int CALLS = 20_000;
    private static int ran;
    private static final Runnable CALLBACK = () -> ran++;

    private InstrumentationOverheadInterleaved() {
    }

    public static void main(String[] args) {
        String variant = args.length > 0 ? args[0] : "micrometer";
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 300;
        RendererSyncContext none = InstrumentationOverheadBenchmark.build("none");
        RendererSyncContext instrumented = InstrumentationOverheadBenchmark.build(variant);
        for (int w = 0; w < 300; w++) {
            loop(none);
            loop(instrumented);
        }
        double[] plain = new double[rounds];
        double[] observed = new double[rounds];
        double[] ratio = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            long tn;
            long tx;
            if ((r & 1) == 0) {
                tn = loop(none);
                tx = loop(instrumented);
            } else {
                tx = loop(instrumented);
                tn = loop(none);
            }
            plain[r] = tn / (double) CALLS;
            observed[r] = tx / (double) CALLS;
            ratio[r] = observed[r] / plain[r];
        }
        Arrays.sort(plain);
        Arrays.sort(observed);
        Arrays.sort(ratio);
        System.out.printf("InvokeAsyncReady per call: none median %.2f ns, %s median %.2f ns;"
                        + " ratio p25 %.3f, median %.3f, p75 %.3f (%d rounds of %d calls; %d callbacks ran)%n",
                plain[rounds / 2], variant, observed[rounds / 2], ratio[rounds / 4], ratio[rounds / 2],
                ratio[3 * rounds / 4], rounds, CALLS, ran);
    }

    private static long loop(RendererSyncContext context) {
        long start = System.nanoTime();
        for (int i = 0; i < CALLS; i++) {
            CompletableFuture<Void> done = context.invokeAsync(CALLBACK);
            done.join();
        }
        return System.nanoTime() - start;
    }
}
