package dev.synccontext.bench;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.scenario.Scenario;
import dev.synccontext.scenario.Scenarios;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link DiagnosticsOverheadBenchmark} comparison made robust against a noisy machine, as
 * {@link InstrumentationOverheadInterleaved} does it: one JVM runs a scenario on contexts built as
 * {@code variant} and as {@code baseline} in alternating rounds of 20 scenario invocations (20,000
 * operations; order flipped every round, after 100 warm-up round pairs), and reports per-operation
 * medians and the median of the per-round ratios {@code variant / baseline}.
 *
 * <p>Usage: {@code java -cp bench/jmh/target/benchmarks.jar dev.synccontext.bench.DiagnosticsOverheadInterleaved
 * [scenario, default InvokeAsyncReady] [variant, default on] [baseline, default off] [rounds, default 300]};
 * variants as {@link DiagnosticsOverheadBenchmark#diagnostics}.
 */
public final class DiagnosticsOverheadInterleaved {

    private static final int INVOCATIONS = 20;

    private DiagnosticsOverheadInterleaved() {
    }

    public static void main(String[] args) throws Exception {
        String scenarioName = args.length > 0 ? args[0] : "InvokeAsyncReady";
        String variant = args.length > 1 ? args[1] : "on";
        String baseline = args.length > 2 ? args[2] : "off";
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 300;
        Scenario scenario = Scenarios.byName(scenarioName);
        List<RendererSyncContext> base = contexts(scenario, baseline);
        List<RendererSyncContext> tried = contexts(scenario, variant);
        double ops = INVOCATIONS * 1000.0;
        Interleaved.Result result = Interleaved.compare(() -> loop(scenario, base), () -> loop(scenario, tried), 100,
                rounds, ops);
        System.out.printf("%s per operation: %s median %.2f ns, %s median %.2f ns; ratio %s/%s p25 %.3f,"
                        + " median %.3f, p75 %.3f (%d rounds of %d operations)%n",
                scenarioName, baseline, result.baseMedian(), variant, result.triedMedian(), variant, baseline,
                result.ratioP25(), result.ratioMedian(), result.ratioP75(), rounds, (int) ops);
    }

    private static List<RendererSyncContext> contexts(Scenario scenario, String diagnostics) {
        List<RendererSyncContext> contexts = new ArrayList<>();
        for (int i = 0; i < scenario.contextsPerInvocation(); i++) {
            contexts.add(DiagnosticsOverheadBenchmark.build(diagnostics));
        }
        return contexts;
    }

    private static long loop(Scenario scenario, List<RendererSyncContext> contexts) throws Exception {
        long start = System.nanoTime();
        for (int i = 0; i < INVOCATIONS; i++) {
            scenario.runOnce(contexts);
        }
        return System.nanoTime() - start;
    }
}
