package dev.synccontext.scenario;

import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Runs built-in scenarios in this JVM (for the actuator endpoint, and for a quick look without JMH)
 * and reports the reference table's columns.
 *
 * <h2>What it measures, and how</h2>
 * For each scenario × mode, in request order, it takes fresh contexts from the factory (as many as
 * {@link Scenario#contextsPerInvocation()}), runs one pilot invocation to size the iterations, then
 * {@code warmups} unmeasured and {@code iterations} measured iterations. An iteration is a batch of
 * invocations sized to a time slice (at most 100 ms, less when the budget is tight); its sample is
 * the mean time per invocation, and the row's Mean, Error (99.9%, Student t, as JMH), StdDev and
 * Median are taken over those samples. Allocated is the bytes all threads allocated during the
 * measured iterations divided by their invocations: an estimate (see {@code AllocationMeter}).
 * Contexts are closed after their row.
 *
 * <h2>Bounds</h2>
 * The run stops once {@code maxDuration} has elapsed, checked between invocations: the report is then
 * {@code truncated}, keeps every row with at least one measured iteration, and may overrun the bound
 * by one invocation. A scenario that finds its context dropped work throws
 * {@link IllegalStateException} after the scenario's own bounded wait; that failure ends the run and
 * propagates.
 *
 * <p>Not a replacement for JMH: no forks, no blackholes, the JIT state carries over between rows.
 * Instances are thread-safe but runs on one JVM disturb each other's figures.
 */
public final class ScenarioRunner {

    private static final long MAX_SLICE_NANOS = 100_000_000L;
    private static final long MIN_SLICE_NANOS = 1_000_000L;

    private final Function<Mode, RendererSyncContext> contexts;

    /** @param contexts gives a fresh context for a mode each time it is called */
    public ScenarioRunner(Function<Mode, RendererSyncContext> contexts) {
        this.contexts = Objects.requireNonNull(contexts, "contexts");
    }

    /** {@code OPTIMIZED}: {@link RendererSyncContext#create()}; {@code BASELINE}: {@link BaselineSyncContext#BaselineSyncContext()}. */
    public static ScenarioRunner withDefaults() {
        return new ScenarioRunner(mode -> mode == Mode.OPTIMIZED ? RendererSyncContext.create() : new BaselineSyncContext());
    }

    public BenchmarkReport run(BenchmarkRequest request) {
        Objects.requireNonNull(request, "request");
        long start = System.nanoTime();
        long budget = saturatedNanos(request.maxDuration());
        long deadline = start + budget;
        long planned = (long) request.scenarios().size() * request.modes().size()
                * (request.warmups() + request.iterations());
        long slice = Math.max(MIN_SLICE_NANOS, Math.min(MAX_SLICE_NANOS, budget / 2 / planned));
        AllocationMeter meter = new AllocationMeter();
        List<BenchmarkRow> rows = new ArrayList<>();
        boolean truncated = false;
        for (String name : request.scenarios()) {
            for (Mode mode : request.modes()) {
                Row row = new Row(Scenarios.byName(name), mode, slice, deadline, meter);
                try {
                    truncated = !row.measure(request.warmups(), request.iterations());
                } catch (Exception failure) {
                    throw failure instanceof RuntimeException r ? r
                            : new IllegalStateException(name + " (" + mode.id() + ") failed: " + failure, failure);
                } finally {
                    row.close();
                }
                if (row.samples.length > 0) {
                    rows.add(row.result());
                }
                if (truncated) {
                    return report(rows, true, start);
                }
            }
        }
        return report(rows, truncated, start);
    }

    private static BenchmarkReport report(List<BenchmarkRow> rows, boolean truncated, long start) {
        return new BenchmarkReport(rows, ResultTable.format(rows), truncated, Duration.ofNanos(System.nanoTime() - start));
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE / 4;
        }
    }

    /** One scenario × mode: its contexts, its samples. */
    private final class Row {

        final Scenario scenario;
        final Mode mode;
        final long slice;
        final long deadline;
        final AllocationMeter meter;
        final List<RendererSyncContext> given = new ArrayList<>();
        double[] samples = new double[0];
        long allocated;
        long measuredInvocations;

        Row(Scenario scenario, Mode mode, long slice, long deadline, AllocationMeter meter) {
            this.scenario = scenario;
            this.mode = mode;
            this.slice = slice;
            this.deadline = deadline;
            this.meter = meter;
            for (int i = 0; i < scenario.contextsPerInvocation(); i++) {
                given.add(Objects.requireNonNull(contexts.apply(mode), "the context factory returned null"));
            }
        }

        /** Returns false if the deadline cut it short. */
        boolean measure(int warmups, int iterations) throws Exception {
            if (System.nanoTime() - deadline >= 0) {
                return false;
            }
            long t0 = System.nanoTime();
            scenario.runOnce(given);
            int batch = batchFor(System.nanoTime() - t0, 1);
            for (int w = 0; w < warmups; w++) {
                long began = System.nanoTime();
                int ran = invoke(batch);
                if (ran < batch) {
                    return false;
                }
                batch = batchFor(System.nanoTime() - began, ran);
            }
            double[] measured = new double[iterations];
            for (int i = 0; i < iterations; i++) {
                Map<Long, Long> before = meter.read();
                long began = System.nanoTime();
                int ran = invoke(batch);
                long took = System.nanoTime() - began;
                if (ran == 0) {
                    samples = Arrays.copyOf(measured, i);
                    return false;
                }
                long bytes = meter.since(before);
                allocated = bytes < 0 || allocated < 0 ? -1 : allocated + bytes;
                measuredInvocations += ran;
                measured[i] = took / 1_000.0 / ran;
                if (ran < batch) {
                    samples = Arrays.copyOf(measured, i + 1);
                    return false;
                }
            }
            samples = measured;
            return true;
        }

        /** Runs up to {@code batch} invocations, fewer if the deadline passes; returns how many ran. */
        private int invoke(int batch) throws Exception {
            for (int n = 0; n < batch; n++) {
                if (System.nanoTime() - deadline >= 0) {
                    return n;
                }
                scenario.runOnce(given);
            }
            return batch;
        }

        private int batchFor(long nanos, int invocations) {
            double perInvocation = Math.max(1, nanos / (double) invocations);
            return (int) Math.max(1, Math.min(Integer.MAX_VALUE, slice / perInvocation));
        }

        BenchmarkRow result() {
            TimingStatistics stats = TimingStatistics.of(samples);
            double bytesPerInvocation = allocated < 0 ? -1 : allocated / (double) measuredInvocations;
            return new BenchmarkRow(scenario.name(), mode.id(), stats.mean(), stats.error(), stats.stdDev(),
                    stats.median(), bytesPerInvocation, stats.n());
        }

        void close() {
            for (RendererSyncContext context : given) {
                try {
                    context.close();
                } catch (RuntimeException ignored) {
                    // closing a user-supplied context must not hide the row's result
                }
            }
        }
    }
}
