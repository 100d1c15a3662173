package dev.synccontext.bench;

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
 * The scenarios beyond the reference four: {@code Contended} (two threads calling {@code invokeAsync} on one
 * context at once; per op = per call) and {@code ManyContexts} (10,000 contexts, 10 posts each from
 * two producers; per op = per post). {@code single-thread} is left out of ManyContexts on purpose:
 * it would start 10,000 threads. Same fork flags as {@link SeedBenchmarks} (none).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1) // no JVM flags: see SeedBenchmarks
public class ExtraBenchmarks {

    /** What both states share: the executor parameter, and one scenario's contexts made once per trial. */
    @State(Scope.Benchmark)
    public abstract static class ScenarioTrial {
        /** Where the optimized context drains; see {@link BenchModes#executor}. */
        @Param({BenchModes.ELASTIC})
        public String executor;

        private final String scenario;
        ScenarioState state;

        ScenarioTrial(String scenario) {
            this.scenario = scenario;
        }

        /** The subclass's {@code mode} parameter (each has its own list of modes). */
        abstract String mode();

        @Setup(Level.Trial)
        public void setUp() {
            state = new ScenarioState(scenario, mode(), executor);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            state.close();
        }
    }

    /** State for {@code Contended}: all five modes. */
    @State(Scope.Benchmark)
    public static class ContendedState extends ScenarioTrial {
        @Param({"baseline", "optimized", "single-thread", "guava-sequential", "lock-inline"})
        public String mode;

        public ContendedState() {
            super("Contended");
        }

        @Override
        String mode() {
            return mode;
        }
    }

    /** State for {@code ManyContexts}: every mode that does not need a thread per context. */
    @State(Scope.Benchmark)
    public static class ManyContextsState extends ScenarioTrial {
        @Param({"baseline", "optimized", "guava-sequential", "lock-inline"})
        public String mode;

        public ManyContextsState() {
            super("ManyContexts");
        }

        @Override
        String mode() {
            return mode;
        }
    }

    /** Two threads × 1000 {@code invokeAsync(...).join()} on one context. */
    @Benchmark
    @OperationsPerInvocation(2000)
    public void Contended(ContendedState s) throws Exception {
        s.state.run();
    }

    /** 10,000 contexts × 10 posts from two producer threads. */
    @Benchmark
    @OperationsPerInvocation(100_000)
    public void ManyContexts(ManyContextsState s) throws Exception {
        s.state.run();
    }
}
