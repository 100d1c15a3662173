package dev.synccontext.bench;

import dev.synccontext.RendererSyncContext;
import java.time.Duration;
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
 * What the diagnostics cost when nothing blocks and no Flight Recorder recording runs (docs/DESIGN.md,
 * "Diagnostics"): a scenario (1000 operations, {@code InvokeAsyncReady} or {@code PostSerial}) on a
 * context with the diagnostics as built by default ({@code on}: watchdog at the default threshold,
 * deadlock detection, JFR events), with the watchdog off ({@code off}: {@code blockedThreshold(ZERO)};
 * deadlock detection has no switch, it acts only when a thread is about to block), and with submit-site
 * sampling at one in N queued callbacks ({@code submit-N}; off by default).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(2)
public class DiagnosticsOverheadBenchmark {

    /** {@code on} (the defaults), {@code off} (watchdog off) or {@code submit-N} (defaults plus submit sites). */
    @Param({"on", "off", "submit-64", "submit-1"})
    public String diagnostics;

    /** {@code InvokeAsyncReady} (the inline path) or {@code PostSerial} (the queued path). */
    @Param({"InvokeAsyncReady", "PostSerial"})
    public String scenario;

    private ScenarioState state;

    @Setup(Level.Trial)
    public void setUp() {
        state = new ScenarioState(scenario, () -> build(diagnostics));
    }

    static RendererSyncContext build(String diagnostics) {
        RendererSyncContext.Builder builder = RendererSyncContext.builder().name("diagnostics-" + diagnostics);
        if (diagnostics.equals("off")) {
            builder.blockedThreshold(Duration.ZERO);
        } else if (diagnostics.startsWith("submit-")) {
            builder.submitSiteSampling(Integer.parseInt(diagnostics.substring("submit-".length())));
        } else if (!diagnostics.equals("on")) {
            throw new IllegalArgumentException("diagnostics: on, off or submit-N, was " + diagnostics);
        }
        return builder.build();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        state.close();
    }

    /** One invocation of the scenario: 1000 operations. */
    @Benchmark
    @OperationsPerInvocation(1000)
    public void scenario() throws Exception {
        state.run();
    }
}
