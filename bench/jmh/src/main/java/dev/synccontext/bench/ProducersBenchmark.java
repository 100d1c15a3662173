package dev.synccontext.bench;

import dev.synccontext.RendererSyncContext;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
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
 * How a post's cost grows with the threads posting to <em>one</em> context: {@code PostConcurrent}
 * with {@code producers} outside threads (the benchmark thread and {@code producers - 1} threads
 * started once per trial) sharing 10,000 posts per invocation; the post that brings a counter to
 * zero completes a future the benchmark thread joins. One operation is one post, so the figure is
 * wall time per post of the whole system (producers and drain), and {@code -prof gc}'s bytes are per
 * post too. Each post checks that it runs after its producer's earlier posts (per-producer FIFO) and
 * the counter is a plain field touched only inside the context (a second callback running at once
 * would lose updates); the invocation verifies both. Same fork flags as {@link SeedBenchmarks} (none).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
public class ProducersBenchmark {

    static final int POSTS = 10_000;

    @Param({BenchModes.OPTIMIZED, BenchModes.NETTY_NONSTICKY})
    public String mode;

    /** Threads posting at once, the benchmark thread included; a divisor of {@link #POSTS}. */
    @Param({"1", "2", "4", "8"})
    public int producers;

    private RendererSyncContext context;
    private ProducerThreads threads;
    /** steps[p][k]: producer p's k-th post. */
    private Runnable[][] steps;
    /** Next expected k per producer; touched only inside the context. */
    private int[] nextSeq;
    private int remaining;
    private int outOfOrder;
    private CompletableFuture<Void> drained;

    @Setup(Level.Trial)
    public void setUp() {
        if (producers < 1 || POSTS % producers != 0) {
            throw new IllegalArgumentException("producers must divide " + POSTS + ", was " + producers);
        }
        context = BenchModes.create(mode);
        threads = new ProducerThreads(producers);
        int share = POSTS / producers;
        steps = new Runnable[producers][share];
        for (int p = 0; p < producers; p++) {
            for (int k = 0; k < share; k++) {
                int producer = p;
                int seq = k;
                steps[p][k] = () -> step(producer, seq);
            }
        }
        nextSeq = new int[producers];
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        context.close();
        threads.close();
    }

    /** {@code producers} threads × {@code 10,000 / producers} posts to one context; join the last. */
    @Benchmark
    @OperationsPerInvocation(POSTS)
    public void post() throws Exception {
        CompletableFuture<Void> done = new CompletableFuture<>();
        // Published to the drain by each post's hand-off (and to the other producers by submit()).
        Arrays.fill(nextSeq, 0);
        remaining = POSTS;
        outOfOrder = 0;
        drained = done;
        threads.run(producer -> produce(steps[producer]), 30);
        done.get(30, TimeUnit.SECONDS);
        if (remaining != 0 || outOfOrder != 0) {
            throw new IllegalStateException(context.name() + ": counter " + remaining + ", " + outOfOrder
                    + " posts out of their producer's order (expected 0 and 0)");
        }
    }

    private void produce(Runnable[] mine) {
        for (Runnable step : mine) {
            context.post(step);
        }
    }

    private void step(int producer, int seq) {
        if (nextSeq[producer]++ != seq) {
            outOfOrder++;
        }
        if (--remaining == 0) {
            drained.complete(null);
        }
    }
}
