package dev.synccontext.bench;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.SyncContextObserver;
import dev.synccontext.micrometer.SyncContextMetrics;
import dev.synccontext.statistics.SyncContextStatistics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the starter's metrics cost on the cheapest path: {@code InvokeAsyncReady} (1000 ×
 * {@code invokeAsync(callback).join()} on an idle context) with no observer ({@code none}), with the
 * {@link SyncContextStatistics} observer alone ({@code statistics}: exact striped counts, one callback
 * in 32 timed and allocation-probed), and with those statistics exported to a Micrometer registry
 * ({@code micrometer}: the sampled timings also go into two {@code Timer}s), which is what a Spring Boot
 * application with the starter runs. The bar: {@code micrometer} at most 1.25 × {@code none}.
 *
 * <p>On a shared, loaded machine JMH's per-fork figures wander by more than the effect measured;
 * {@link InstrumentationOverheadInterleaved} alternates the two contexts in short rounds in one JVM
 * and reports the median ratio, which stays put.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class InstrumentationOverheadBenchmark {

    /**
     * {@code none}, {@code statistics} or {@code micrometer}; a suffix {@code -N} sets the sampling
     * interval (default {@link SyncContextStatistics#DEFAULT_SAMPLING_INTERVAL}), and {@code noop-N} is
     * an observer that does nothing, to separate the context's own hook and probe cost.
     */
    @Param({"none", "statistics", "micrometer"})
    public String instrumentation;

    private ScenarioState scenario;

    @Setup(Level.Trial)
    public void setUp() {
        scenario = new ScenarioState("InvokeAsyncReady", () -> build(instrumentation));
    }

    /** A context instrumented as {@code instrumentation} says (see {@link #instrumentation}). */
    static RendererSyncContext build(String instrumentation) {
        RendererSyncContext.Builder builder = RendererSyncContext.builder().name("overhead-" + instrumentation);
        if (!instrumentation.equals("none")) {
            int dash = instrumentation.indexOf('-');
            String kind = dash < 0 ? instrumentation : instrumentation.substring(0, dash);
            int interval = dash < 0 ? SyncContextStatistics.DEFAULT_SAMPLING_INTERVAL
                    : Integer.parseInt(instrumentation.substring(dash + 1));
            if (kind.equals("noop")) {
                builder.observer(new SyncContextObserver() {
                    @Override
                    public int samplingInterval() {
                        return interval;
                    }
                });
            } else {
                SyncContextStatistics statistics = new SyncContextStatistics("session", List::of, interval);
                if (kind.equals("micrometer")) {
                    new SyncContextMetrics(statistics).bindTo(new SimpleMeterRegistry());
                }
                builder.observer(statistics);
            }
        }
        return builder.build();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        scenario.close();
    }

    /** 1000 × {@code ctx.invokeAsync(callback).join()} on an idle context; per call. */
    @Benchmark
    @OperationsPerInvocation(1000)
    public void InvokeAsyncReady() throws Exception {
        scenario.run();
    }
}
