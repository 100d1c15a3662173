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
 * The four reference scenarios (docs/DESIGN.md, "Scenarios"), one JMH invocation = one scenario invocation (the whole
 * loop); JMH reports per operation, one operation = one call on the context
 * ({@code @OperationsPerInvocation}), and run.sh multiplies back for the reference table, which is per invocation.
 *
 * <p>Fork flags: none, so the figures are what an application gets on this machine (on 2 CPUs that is one
 * common-pool worker). {@code bench/run.sh} measures a second, labelled configuration with
 * {@code -Djava.util.concurrent.ForkJoinPool.common.parallelism=2} added from the command line
 * ({@code -jvmArgsAppend}): on JDK 17 with one common-pool worker a {@code CompletableFuture} async hop on
 * the common pool can take milliseconds (measured: 1000 chained {@code thenRunAsync} 1.0-3.4 s; with
 * parallelism 2, 1.8 ms; on JDK 25, 6.6 ms), which is what the {@code baseline} mode pays per queued item.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
public class SeedBenchmarks {

    /**
     * Every mode: ours, the Java alternatives, and the other libraries' designs (their adapters; see
     * {@link BenchModes#PEERS}), so README's comparison table comes from one run per JDK.
     */
    @Param({"baseline", "optimized", "single-thread", "guava-sequential", "lock-inline", "netty-nonsticky",
            "kotlinx-limited", "grpc-sync", "vertx-worker"})
    public String mode;

    /**
     * Where the optimized context drains: {@code elastic} (the default executor), {@code common-pool},
     * {@code virtual} (a virtual thread per drain, Java 21+), {@code cached-tpe} (a capped cached
     * {@code ThreadPoolExecutor}, see {@link BenchModes#executor}). Other modes ignore it.
     */
    @Param({BenchModes.ELASTIC})
    public String executor;

    private ScenarioState invokeAsyncReady;
    private ScenarioState invokeAsyncBusy;
    private ScenarioState postSerial;
    private ScenarioState postConcurrent;

    @Setup(Level.Trial)
    public void setUp() {
        invokeAsyncReady = new ScenarioState("InvokeAsyncReady", mode, executor);
        invokeAsyncBusy = new ScenarioState("InvokeAsyncBusy", mode, executor);
        postSerial = new ScenarioState("PostSerial", mode, executor);
        postConcurrent = new ScenarioState("PostConcurrent", mode, executor);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        invokeAsyncReady.close();
        invokeAsyncBusy.close();
        postSerial.close();
        postConcurrent.close();
    }

    /** 1000 × {@code ctx.invokeAsync(callback).join()} on an idle context. */
    @Benchmark
    @OperationsPerInvocation(1000)
    public void InvokeAsyncReady() throws Exception {
        invokeAsyncReady.run();
    }

    /** 1000 × {@code invokeAsyncStage(() -> gate)}, complete the gate, join. */
    @Benchmark
    @OperationsPerInvocation(1000)
    public void InvokeAsyncBusy() throws Exception {
        invokeAsyncBusy.run();
    }

    /** One {@code invokeAsync} whose callback re-posts itself 1000 times; join the last step. */
    @Benchmark
    @OperationsPerInvocation(1000)
    public void PostSerial() throws Exception {
        postSerial.run();
    }

    /** 10,000 posts from one outside thread; the last to run completes a future that is joined. */
    @Benchmark
    @OperationsPerInvocation(10_000)
    public void PostConcurrent() throws Exception {
        postConcurrent.run();
    }
}
