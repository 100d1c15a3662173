package dev.synccontext.bench;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.scenario.Scenario;
import dev.synccontext.scenario.Scenarios;

/**
 * Two modes of {@link SeedBenchmarks} on one scenario, compared robustly on a noisy machine: one JVM runs
 * the scenario on a context of each mode in alternating rounds (order flipped every round, after
 * warm-up rounds) and reports per-operation medians and the median of the per-round ratios (first /
 * second). Noise from other processes hits both halves of a round alike, so the ratio holds still where
 * JMH's absolute figures do not. Bytes per operation: {@link SeedBenchmarks} with {@code -prof gc}.
 *
 * <p>Usage: {@code java -cp bench/jmh/target/benchmarks.jar dev.synccontext.bench.ModesInterleaved
 * [scenario, default PostConcurrent] [first mode, default optimized] [second mode, default netty-nonsticky]
 * [rounds, default 400]}; a mode {@code optimized@N} is the optimized one with {@code maxBatch} N, and
 * {@code -Dbench.maxBatch=N} applies to the plain optimized mode ({@link BenchModes}).
 */
public final class ModesInterleaved {

    private ModesInterleaved() {
    }

    public static void main(String[] args) throws Exception {
        String scenarioName = args.length > 0 ? args[0] : "PostConcurrent";
        String first = args.length > 1 ? args[1] : BenchModes.OPTIMIZED;
        String second = args.length > 2 ? args[2] : BenchModes.NETTY_NONSTICKY;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 400;
        RendererSyncContext a = create(first);
        RendererSyncContext b = create(second);
        Scenario onA = Scenarios.byName(scenarioName);
        Scenario onB = Scenarios.byName(scenarioName);
        int ops = onA.operationsPerInvocation();
        // The ratio is first / second: the second mode is the base.
        Interleaved.Result result = Interleaved.compare(() -> time(onB, b), () -> time(onA, a), rounds / 2, rounds,
                ops);
        System.out.printf("%s per op: %s median %.1f ns, %s median %.1f ns; ratio %s/%s p25 %.2f, median %.2f,"
                        + " p75 %.2f (%d rounds of %d ops, maxBatch %s, %s)%n",
                scenarioName, first, result.triedMedian(), second, result.baseMedian(), first, second,
                result.ratioP25(), result.ratioMedian(), result.ratioP75(), rounds, ops,
                Integer.getInteger("bench.maxBatch", 0) > 0 ? Integer.getInteger("bench.maxBatch") : "default",
                Runtime.version());
        a.close();
        b.close();
        System.exit(0); // the peers' pools are non-daemon
    }

    /** A mode of {@link BenchModes}, or {@code optimized@N}: the optimized one with {@code maxBatch} N. */
    private static RendererSyncContext create(String mode) {
        if (mode.startsWith(BenchModes.OPTIMIZED + "@")) {
            int maxBatch = Integer.parseInt(mode.substring(BenchModes.OPTIMIZED.length() + 1));
            return RendererSyncContext.builder().executor(RendererSyncContext.defaultExecutor()).maxBatch(maxBatch)
                    .build();
        }
        return BenchModes.create(mode);
    }

    private static long time(Scenario scenario, RendererSyncContext context) throws Exception {
        long start = System.nanoTime();
        scenario.runOnce(context);
        return System.nanoTime() - start;
    }
}
