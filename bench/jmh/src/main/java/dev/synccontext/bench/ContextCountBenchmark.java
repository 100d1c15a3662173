package dev.synccontext.bench;

import dev.synccontext.RendererSyncContext;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * How a post's cost grows with the number of live contexts (sessions): {@code contexts} contexts made
 * once per trial, and 2,000,000 posts per invocation spread evenly over them, so that each context gets
 * {@code 2,000,000 / contexts} posts (2,000,000 on one context, 2 each on 1,000,000). One operation is
 * one post: the figure is wall time per post of the whole system (producers and drains), and
 * {@code -prof gc}'s bytes are per post.
 *
 * <p><b>Order.</b> Each producer walks its contexts round-robin in a <em>shuffled</em> order (fixed per
 * producer and trial, a different one per producer): every context is visited once per round, so the
 * distance between two posts to one context is always all the other contexts (the longest reuse
 * distance there is, as when many sessions each send now and then: whether a post finds its context
 * in the cache depends only on whether {@code contexts} × the bytes a post touches fit), and the next
 * context is not the neighbour in memory of the last one, which the hardware prefetcher would
 * otherwise fetch ahead (contexts made in a loop sit side by side in the heap; sessions come in no
 * such order).
 *
 * <p><b>Producers.</b> {@code producers} threads (the benchmark thread and one started per trial) each
 * make {@code 1 / producers} of the rounds over <em>all</em> contexts, so with 2 every context gets posts
 * from both.
 *
 * <p><b>Checked every invocation.</b> Each callback touches its context's own 128-byte slot of a state
 * array (as a session's callback touches the session's state; 128 B apart so that two contexts never
 * share a cache line or an adjacent-line prefetch pair): it checks that it runs after its producer's
 * earlier posts to that context (per-producer FIFO), counts itself with plain writes (two callbacks of
 * one context at once would lose a count, and the invocation would then stall and fail), and the one
 * that completes its context's share decrements the count of contexts left, whose last completes the
 * future the benchmark thread joins. That count is one atomic per context per invocation, not per post
 * (a post-level shared counter would be a line every drain thread writes); at 1,000,000 contexts it is
 * one per two posts, the same for every mode. After each iteration every context's counts are checked
 * exactly (nothing lost, nothing run twice).
 *
 * <p>{@code optimized} contexts are built as the starter builds them: one shared builder, one name
 * (136 B each idle); the others by {@link BenchModes#create}. Default JVM flags, as
 * {@link SeedBenchmarks}: a mode whose contexts do not fit the default heap at 1,000,000 fails its
 * trial, which is a footprint finding (bench/README.md).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 4, time = 1)
public class ContextCountBenchmark {

    static final int POSTS = 2_000_000;
    /** Ints per context in {@link #state}: 128 B. Slot 0 counts the context's callbacks, 1 + p producer p's. */
    static final int STRIDE = 32;
    static final long PATIENCE_SECONDS = 60;

    @Param({BenchModes.OPTIMIZED, BenchModes.LOCK_INLINE, BenchModes.NETTY_NONSTICKY, BenchModes.KOTLINX_LIMITED})
    public String mode;

    /** A divisor of {@link #POSTS} with {@code POSTS / contexts} a multiple of {@link #producers}. */
    @Param({"1", "100", "10000", "1000000"})
    public int contexts;

    @Param({"1", "2"})
    public int producers;

    /** Posts per invocation; only a test lowers it (the JMH figures use {@link #POSTS}). */
    int posts = POSTS;
    /** How long an invocation waits for its posts before it fails; only a test shortens it. */
    long patienceSeconds = PATIENCE_SECONDS;

    private RendererSyncContext[] all;
    /** targets[p][i]: producer p's i-th context of a round (its shuffled order). */
    private RendererSyncContext[][] targets;
    /** steps[p][r * contexts + i]: producer p's post to targets[p][i] in its round r. */
    private Runnable[][] steps;
    private ProducerThreads threads;
    private int[] state;
    private int perContext;
    private int roundsPerProducer;
    /** Invocations completed; the counts in {@link #state} grow by one invocation's share each. */
    private int epoch;
    // Written by the benchmark thread before an invocation's first post, read by its callbacks
    // (published to them by each post's hand-off).
    private int countBase;
    private int seqBase;
    private CompletableFuture<Void> drained;
    private final AtomicInteger contextsLeft = new AtomicInteger();
    private final AtomicInteger outOfOrder = new AtomicInteger();

    @Setup(Level.Trial)
    public void setUp() {
        RendererSyncContext.Builder shared = RendererSyncContext.builder().name("session")
                .executor(BenchModes.executor(BenchModes.ELASTIC));
        setUp(BenchModes.OPTIMIZED.equals(mode) ? shared::build : () -> BenchModes.create(mode));
    }

    /** The trial's set-up on contexts from {@code factory} (a test passes a context that breaks a rule). */
    void setUp(Supplier<RendererSyncContext> factory) {
        if (contexts < 1 || posts % contexts != 0 || producers < 1 || (posts / contexts) % producers != 0) {
            throw new IllegalArgumentException("contexts must divide " + posts + " and producers divide "
                    + posts + " / contexts; were " + contexts + " and " + producers);
        }
        perContext = posts / contexts;
        roundsPerProducer = perContext / producers;
        all = new RendererSyncContext[contexts];
        for (int c = 0; c < contexts; c++) {
            all[c] = factory.get();
        }
        state = new int[contexts * STRIDE];
        targets = new RendererSyncContext[producers][contexts];
        steps = new Runnable[producers][roundsPerProducer * contexts];
        for (int p = 0; p < producers; p++) {
            int[] order = shuffled(contexts, new Random(26L + p));
            for (int i = 0; i < contexts; i++) {
                targets[p][i] = all[order[i]];
            }
            for (int r = 0; r < roundsPerProducer; r++) {
                for (int i = 0; i < contexts; i++) {
                    steps[p][r * contexts + i] = new Step(this, order[i] * STRIDE, 1 + p, r);
                }
            }
        }
        threads = new ProducerThreads(producers);
        epoch = 0;
    }

    @TearDown(Level.Iteration)
    public void verifyCounts() {
        int count = epoch * perContext;
        int seq = epoch * roundsPerProducer;
        for (int c = 0; c < contexts; c++) {
            int base = c * STRIDE;
            boolean exact = state[base] == count;
            for (int p = 0; p < producers; p++) {
                exact &= state[base + 1 + p] == seq;
            }
            if (!exact) {
                throw new IllegalStateException(all[c].name() + " (context " + c + " of " + contexts + ", " + mode
                        + "): ran " + state[base] + " callbacks, expected exactly " + count);
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        for (RendererSyncContext context : all) {
            context.close();
        }
        threads.close();
    }

    /** {@code producers} threads × their rounds over every context; join the last context's last post. */
    @Benchmark
    @OperationsPerInvocation(POSTS)
    public void post() throws Exception {
        CompletableFuture<Void> done = new CompletableFuture<>();
        countBase = epoch * perContext;
        seqBase = epoch * roundsPerProducer;
        outOfOrder.set(0);
        contextsLeft.set(contexts);
        drained = done;
        threads.run(this::produce, patienceSeconds);
        try {
            done.get(patienceSeconds, TimeUnit.SECONDS);
        } catch (TimeoutException stalled) {
            throw new IllegalStateException(mode + ": " + contextsLeft.get() + " of " + contexts
                    + " contexts did not run all their " + perContext + " posts within " + patienceSeconds
                    + " s (lost, or two callbacks of one context ran at once)", stalled);
        }
        epoch++;
        if (outOfOrder.get() != 0) {
            throw new IllegalStateException(mode + ": " + outOfOrder.get()
                    + " posts ran out of their producer's order to their context (before an earlier one, or twice)");
        }
    }

    private void produce(int producer) {
        RendererSyncContext[] order = targets[producer];
        Runnable[] mine = steps[producer];
        int n = order.length;
        for (int r = 0, k = 0; r < roundsPerProducer; r++) {
            for (int i = 0; i < n; i++, k++) {
                order[i].post(mine[k]);
            }
        }
    }

    /**
     * One post's callback: the k-th ({@code seq}) post of one producer to one context, whose slot of
     * {@code state} starts at {@code base} ({@code producerSlot} is the producer's int in it). Made once
     * per trial.
     */
    private record Step(ContextCountBenchmark bench, int base, int producerSlot, int seq) implements Runnable {

        @Override
        public void run() {
            ContextCountBenchmark b = bench;
            int[] s = b.state;
            if (s[base + producerSlot]++ - b.seqBase != seq) {
                b.outOfOrder.incrementAndGet();
            }
            if (++s[base] - b.countBase == b.perContext && b.contextsLeft.decrementAndGet() == 0) {
                b.drained.complete(null);
            }
        }
    }

    private static int[] shuffled(int n, Random random) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int swap = order[i];
            order[i] = order[j];
            order[j] = swap;
        }
        return order;
    }
}
