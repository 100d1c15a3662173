package dev.synccontext.bench;

import dev.synccontext.RendererSyncContext;
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

    public static void main(String[] args) throws Exception {
        String variant = args.length > 0 ? args[0] : "micrometer";
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 300;
        RendererSyncContext none = InstrumentationOverheadBenchmark.build("none");
        RendererSyncContext instrumented = InstrumentationOverheadBenchmark.build(variant);
        Interleaved.Result result = Interleaved.compare(() -> loop(none), () -> loop(instrumented), 300, rounds, CALLS);
        System.out.printf("InvokeAsyncReady per call: none median %.2f ns, %s median %.2f ns;"
                        + " ratio p25 %.3f, median %.3f, p75 %.3f (%d rounds of %d calls; %d callbacks ran)%n",
                result.baseMedian(), variant, result.triedMedian(), result.ratioP25(), result.ratioMedian(),
                result.ratioP75(), rounds, CALLS, ran);
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
