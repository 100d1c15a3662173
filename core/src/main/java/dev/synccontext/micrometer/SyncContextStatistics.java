package dev.synccontext.micrometer;

import dev.synccontext.BlockedCallback;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.SyncContextObserver;
import dev.synccontext.TaskOutcome;
import dev.synccontext.TaskPath;
import java.util.Collection;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * What every context of one <em>scope</em> (for example all session contexts of an application) did,
 * aggregated: one instance is the {@link SyncContextObserver} shared by all of them, so the figures
 * never grow with the number of contexts. Uses only the JDK; {@link SyncContextMetrics} exports it to
 * Micrometer, and anything else (an actuator endpoint, a test) can read it directly.
 *
 * <h2>What is exact and what is sampled</h2>
 * <ul>
 *   <li><b>Exact</b>: task counts by path and outcome, blocked and unhandled counts. Task counts are
 *       per-thread rows that only their thread writes ({@code ThreadCounters}): the hot path pays a
 *       thread-local lookup and a plain increment, no atomic read-modify-write (a {@code LongAdder}'s
 *       CAS made the idle path 40% slower). Blocked and unhandled are rare: {@link LongAdder}s.</li>
 *   <li><b>Sampled</b>: wait and run times and allocated bytes. The contexts time and probe only
 *       about one callback in {@link #samplingInterval()} (chosen by the context, see
 *       {@link SyncContextObserver}): reading the clock twice and the thread's allocation counter costs
 *       more than the idle path itself. {@link #allocatedBytes()} is therefore an <em>estimate</em>:
 *       the sampled bytes times the interval. {@link #allocatedBytesPerTask()} is the mean over the
 *       sampled callbacks of a recent window, an unbiased estimate of the per-task mean.</li>
 *   <li><b>Live</b>: {@link #contexts()} and {@link #queueDepth()} are read from the live contexts
 *       on demand (one pass over them), so nothing is maintained per submission.</li>
 * </ul>
 *
 * <p>Thread-safe. Observer methods never throw.
 */
public final class SyncContextStatistics implements SyncContextObserver {

    /**
     * One callback in this many is timed and probed, unless told otherwise. Chosen by measurement: on
     * the idle {@code invokeAsync} path (about 13 ns) the context's probe (two clock reads, two
     * allocation-counter reads, about 80 ns) plus a timer update costs 31% at 1 in 32, 22% at 1 in 64
     * and 11% at 1 in 128 (InstrumentationOverheadBenchmark; issue 4 allows 25%).
     */
    public static final int DEFAULT_SAMPLING_INTERVAL = 128;

    /** How long {@link #allocatedBytesPerTask()} looks back, at least (and at most twice this). */
    static final long ALLOCATION_WINDOW_NANOS = TimeUnit.SECONDS.toNanos(60);

    private static final TaskPath[] PATHS = TaskPath.values();
    private static final TaskOutcome[] OUTCOMES = TaskOutcome.values();

    /** Receives the sampled timings; {@link SyncContextMetrics} feeds its timers from it. */
    interface SampleSink {
        void sampled(TaskPath path, long waitNanos, long runNanos);
    }

    private static final SampleSink[] NO_SINKS = new SampleSink[0];

    private final String scope;
    private final Supplier<? extends Collection<? extends RendererSyncContext>> liveContexts;
    private final int samplingInterval;
    private static final int TASK_COUNTERS = PATHS.length * OUTCOMES.length;
    private static final int SAMPLED_ALLOCATIONS = TASK_COUNTERS;
    private static final int SAMPLED_ALLOCATED_BYTES = TASK_COUNTERS + 1;

    /** Task counts by path and outcome, then the two sampled-allocation sums. */
    private final ThreadCounters counters = new ThreadCounters(TASK_COUNTERS + 2);
    private final LongAdder blocked = new LongAdder();
    private final LongAdder unhandled = new LongAdder();
    private final AllocationWindow window = new AllocationWindow();
    private volatile SampleSink[] sinks = NO_SINKS;

    /**
     * Statistics for the contexts of {@code scope}, sampling one callback in
     * {@value #DEFAULT_SAMPLING_INTERVAL}.
     *
     * @param scope the value of the {@code scope} tag, for example {@code "session"}
     * @param liveContexts the contexts of this scope that are open now; called on each read of
     *     {@link #contexts()} or {@link #queueDepth()}, never on the hot path
     */
    public SyncContextStatistics(String scope,
            Supplier<? extends Collection<? extends RendererSyncContext>> liveContexts) {
        this(scope, liveContexts, DEFAULT_SAMPLING_INTERVAL);
    }

    /**
     * Statistics sampling one callback in {@code samplingInterval} (a power of two; 0 turns timing and
     * allocation sampling off, counts stay exact).
     */
    public SyncContextStatistics(String scope,
            Supplier<? extends Collection<? extends RendererSyncContext>> liveContexts, int samplingInterval) {
        this.scope = Objects.requireNonNull(scope, "scope");
        this.liveContexts = Objects.requireNonNull(liveContexts, "liveContexts");
        if (samplingInterval < 0 || Integer.bitCount(samplingInterval) > 1) {
            throw new IllegalArgumentException(
                    "samplingInterval must be 0 or a power of two, was " + samplingInterval);
        }
        this.samplingInterval = samplingInterval;
    }

    // ---------------------------------------------------------------- SyncContextObserver

    @Override
    public void taskFinished(RendererSyncContext context, TaskPath path, TaskOutcome outcome) {
        counters.increment(path.ordinal() * OUTCOMES.length + outcome.ordinal());
    }

    @Override
    public void taskSampled(RendererSyncContext context, TaskPath path, long waitNanos, long runNanos,
            long allocatedBytes) {
        if (allocatedBytes >= 0) {
            counters.increment(SAMPLED_ALLOCATIONS);
            counters.add(SAMPLED_ALLOCATED_BYTES, allocatedBytes);
        }
        for (SampleSink sink : sinks) {
            sink.sampled(path, waitNanos, runNanos);
        }
    }

    @Override
    public int samplingInterval() {
        return samplingInterval;
    }

    @Override
    public void unhandledException(RendererSyncContext context, Throwable failure) {
        unhandled.increment();
    }

    @Override
    public void callbackBlocked(BlockedCallback callback) {
        blocked.increment();
    }

    // ---------------------------------------------------------------- reads

    /** The value of the {@code scope} tag. */
    public String scope() {
        return scope;
    }

    /** Contexts of this scope that are open now. */
    public int contexts() {
        return liveContexts.get().size();
    }

    /** Callbacks queued and not yet started, summed over the open contexts of this scope. */
    public long queueDepth() {
        long depth = 0;
        for (RendererSyncContext context : liveContexts.get()) {
            depth += context.queueDepth();
        }
        return depth;
    }

    /** Callbacks that reached {@code path} and ended with {@code outcome}, since start. Exact. */
    public long tasks(TaskPath path, TaskOutcome outcome) {
        return counters.sum(path.ordinal() * OUTCOMES.length + outcome.ordinal());
    }

    /** All callbacks counted, of every path and outcome. */
    public long tasks() {
        long total = 0;
        for (int i = 0; i < TASK_COUNTERS; i++) {
            total += counters.sum(i);
        }
        return total;
    }

    /** Callbacks the watchdog reported as blocked. Exact. */
    public long blocked() {
        return blocked.sum();
    }

    /** Callback failures that reached an unhandled-exception handler. Exact. */
    public long unhandled() {
        return unhandled.sum();
    }

    /**
     * Estimated bytes allocated by callbacks since start: the bytes of the sampled callbacks times the
     * sampling interval. 0 when sampling is off or the JVM cannot measure allocation.
     */
    public long allocatedBytes() {
        return counters.sum(SAMPLED_ALLOCATED_BYTES) * samplingInterval;
    }

    /**
     * Mean bytes allocated per callback over a recent window (between one and two minutes, or since
     * the last sample when none arrived for longer), from the sampled callbacks. {@code NaN} before
     * the first sample.
     */
    public double allocatedBytesPerTask() {
        return window.perTask(counters.sum(SAMPLED_ALLOCATED_BYTES), counters.sum(SAMPLED_ALLOCATIONS), System.nanoTime());
    }

    /** All paths, in a stable order (for exporters). */
    static TaskPath[] paths() {
        return PATHS.clone();
    }

    /** All outcomes, in a stable order (for exporters). */
    static TaskOutcome[] outcomes() {
        return OUTCOMES.clone();
    }

    synchronized void addSink(SampleSink sink) {
        SampleSink[] current = sinks;
        SampleSink[] grown = java.util.Arrays.copyOf(current, current.length + 1);
        grown[current.length] = sink;
        sinks = grown;
    }

    /**
     * A sliding window over two cumulative counters, without resetting them (a reset would race with
     * concurrent adds and lose them): it keeps two marks and reports the delta since the older one.
     * The marks move on only when the newer window has samples, so a quiet period reports the last
     * known mean instead of nothing.
     */
    private static final class AllocationWindow {
        private long olderBytes;
        private long olderCount;
        private long newerBytes;
        private long newerCount;
        private long newerSinceNanos = System.nanoTime();

        synchronized double perTask(long bytes, long count, long now) {
            if (now - newerSinceNanos >= ALLOCATION_WINDOW_NANOS && count > newerCount) {
                olderBytes = newerBytes;
                olderCount = newerCount;
                newerBytes = bytes;
                newerCount = count;
                newerSinceNanos = now;
            }
            long samples = count - olderCount;
            return samples == 0 ? Double.NaN : (double) (bytes - olderBytes) / samples;
        }
    }
}
