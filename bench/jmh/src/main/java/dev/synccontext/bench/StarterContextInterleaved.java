package dev.synccontext.bench;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.scenario.Scenario;
import dev.synccontext.scenario.Scenarios;
import io.micrometer.observation.Observation;
import org.slf4j.MDC;

/**
 * The {@link StarterContextBenchmark} comparison made robust against a noisy machine: one JVM runs a
 * scenario on the bare context and on the starter-built one in alternating rounds (order flipped every
 * round, after warm-up rounds) and reports per-post medians and the median of the per-round ratios
 * (starter / bare). Noise from other processes hits both halves of a round alike, so the ratio holds
 * still where absolute figures do not. Bytes per post: {@link StarterContextBenchmark} with
 * {@code -prof gc}.
 *
 * <p>Usage: {@code java -cp bench/jmh/target/benchmarks.jar dev.synccontext.bench.StarterContextInterleaved
 * [scenario, default PostSerial] [threadLocals: none | mdc-observation, default none] [rounds, default 200]}.
 */
public final class StarterContextInterleaved {

    private StarterContextInterleaved() {
    }

    public static void main(String[] args) throws Exception {
        String scenarioName = args.length > 0 ? args[0] : "PostSerial";
        String threadLocals = args.length > 1 ? args[1] : "none";
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 200;
        try (StarterApplication application = new StarterApplication()) {
            if (threadLocals.equals("mdc-observation")) {
                Observation.start("http.server.requests", application.observations()).openScope();
                MDC.put("user", "alice");
                MDC.put("requestId", "4711");
            } else if (!threadLocals.equals("none")) {
                throw new IllegalArgumentException("threadLocals: none or mdc-observation, was " + threadLocals);
            }
            RendererSyncContext bare = StarterContextBenchmark.create(application, "bare");
            RendererSyncContext starter = StarterContextBenchmark.create(application, "starter");
            Scenario onBare = Scenarios.byName(scenarioName);
            Scenario onStarter = Scenarios.byName(scenarioName);
            int ops = onBare.operationsPerInvocation();
            Interleaved.Result result = Interleaved.compare(() -> time(onBare, bare), () -> time(onStarter, starter),
                    rounds / 2, rounds, ops);
            System.out.printf("%s, thread-locals %s, per post: bare median %.1f ns, starter median %.1f ns;"
                            + " ratio starter/bare p25 %.2f, median %.2f, p75 %.2f (%d rounds of %d posts, %s)%n",
                    scenarioName, threadLocals, result.baseMedian(), result.triedMedian(), result.ratioP25(),
                    result.ratioMedian(), result.ratioP75(), rounds, ops, Runtime.version());
            bare.close();
            starter.close();
        }
    }

    private static long time(Scenario scenario, RendererSyncContext context) throws Exception {
        long start = System.nanoTime();
        scenario.runOnce(context);
        return System.nanoTime() - start;
    }
}
