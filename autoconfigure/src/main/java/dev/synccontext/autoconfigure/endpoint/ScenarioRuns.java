package dev.synccontext.autoconfigure.endpoint;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.scenario.BaselineSyncContext;
import dev.synccontext.scenario.BenchmarkReport;
import dev.synccontext.scenario.BenchmarkRequest;
import dev.synccontext.scenario.BenchmarkRow;
import dev.synccontext.scenario.Mode;
import dev.synccontext.scenario.ScenarioRunner;
import dev.synccontext.scenario.Scenarios;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import dev.synccontext.registry.ContextTemplate;
import dev.synccontext.registry.SyncContextRegistry;

/**
 * The POST side of the endpoint without Spring: checks a request against the limits, runs one request
 * at a time through {@link ScenarioRunner}, and says what went wrong in words. Needs
 * {@code synccontext-scenarios}: only {@link SyncContextScenarioEndpoint} and its auto-configuration,
 * which apply when that jar is present, refer to this class.
 */
final class ScenarioRuns {

    static final int DEFAULT_WARMUPS = 2;
    static final int DEFAULT_ITERATIONS = 5;

    static final int OK = 200;
    static final int BAD_REQUEST = 400;
    /** A run is in progress: as Boot's {@code heapdump} answers while it is busy. */
    static final int TOO_MANY_REQUESTS = 429;
    static final int FAILED = 500;

    private final ScenarioRunner runner;
    private final String contexts;
    private final int maxIterations;
    private final Duration maxDuration;
    private final AtomicBoolean running = new AtomicBoolean();

    ScenarioRuns(Function<Mode, RendererSyncContext> contexts, int maxIterations, Duration maxDuration) {
        this(contexts, "as the caller built them", maxIterations, maxDuration);
    }

    /** {@code description} says how {@code contexts} builds each mode's contexts (shown in every report). */
    ScenarioRuns(Function<Mode, RendererSyncContext> contexts, String description, int maxIterations,
            Duration maxDuration) {
        this.runner = new ScenarioRunner(contexts);
        this.contexts = description;
        this.maxIterations = maxIterations;
        this.maxDuration = maxDuration;
    }

    /**
     * Runs on fresh contexts that compare like with like: both modes drain on the registry's executor with
     * its queue limit, and <em>neither</em> gets the application's callback decorator (context
     * propagation), which the baseline design has no place for; what propagation costs is measured on
     * its own ({@code StarterContextBenchmark} in {@code bench/jmh}). {@code optimized} contexts keep the
     * registry's other settings and report to the {@code benchmark} scope's statistics (so a run shows in
     * the overview and the metrics); that observer is a cost only {@code optimized} pays.
     */
    static ScenarioRuns forRegistry(SyncContextRegistry registry, int maxIterations, Duration maxDuration) {
        AtomicLong sequence = new AtomicLong();
        ContextTemplate t = registry.template();
        ContextTemplate undecorated = new ContextTemplate(t.executor(), t.executorName(), t.maxBatch(),
                t.maxQueueDepth(), t.blockedThreshold(), t.shutdownTimeout(), null, t.samplingInterval());
        String description = "both modes: executor " + t.executorName() + ", max-queue-depth " + t.maxQueueDepth()
                + ", no callback decorator (context propagation is left out of both; the baseline has none);"
                + " optimized also: max-batch " + t.maxBatch() + ", the benchmark scope's statistics observer";
        return new ScenarioRuns(mode -> mode == Mode.OPTIMIZED
                ? undecorated.newBuilder().observer(registry.statistics(SyncContextRegistry.BENCHMARK_SCOPE))
                        .name("benchmark-" + sequence.incrementAndGet()).build()
                : new BaselineSyncContext("baseline-" + sequence.incrementAndGet(), t.executor(), t.maxQueueDepth(),
                        null),
                description, maxIterations, maxDuration);
    }

    /** What GET lists: the scenario names, which of them a POST runs by default, and the modes. */
    static SyncContextEndpoint.ScenarioCatalog available() {
        return new SyncContextEndpoint.ScenarioCatalog(Scenarios.names(), Scenarios.seed().stream().map(s -> s.name()).toList(),
                Arrays.stream(Mode.values()).map(Mode::id).toList(), Mode.OPTIMIZED.id());
    }

    /** Whether a run is in progress right now. */
    boolean running() {
        return running.get();
    }

    /**
     * Runs what the request fields ask for (each null means its default).
     *
     * @return an HTTP status and its body: the report (200), or a {@link ScenarioRunResponse.Refused}
     *     (400 bad input, 429 a run in progress, 500 a scenario failed)
     */
    Result run(@Nullable String scenarios, @Nullable String modes, @Nullable Integer iterations,
            @Nullable Integer warmups) {
        BenchmarkRequest request;
        try {
            request = request(scenarios, modes, iterations, warmups);
        } catch (IllegalArgumentException bad) {
            return error(BAD_REQUEST, bad.getMessage());
        }
        if (!running.compareAndSet(false, true)) {
            return error(TOO_MANY_REQUESTS, "A scenario run is already in progress; only one runs at a time. Try again"
                    + " when it has finished (at most synccontext.benchmark.max-duration = " + maxDuration + ").");
        }
        try {
            return new Result(OK, response(runner.run(request)));
        } catch (RuntimeException failure) {
            return error(FAILED, "The scenario run failed: " + failure.getMessage());
        } finally {
            running.set(false);
        }
    }

    private BenchmarkRequest request(@Nullable String scenarios, @Nullable String modes,
            @Nullable Integer iterations, @Nullable Integer warmups) {
        List<String> names = scenarios == null || scenarios.isBlank() ? available().defaults()
                : split(scenarios, "scenarios");
        List<Mode> parsedModes = new ArrayList<>();
        for (String id : modes == null || modes.isBlank() ? List.of(Mode.OPTIMIZED.id()) : split(modes, "modes")) {
            parsedModes.add(Mode.fromId(id.toLowerCase(java.util.Locale.ROOT)));
        }
        int measured = iterations == null ? Math.min(DEFAULT_ITERATIONS, maxIterations) : iterations;
        int warm = warmups == null ? Math.min(DEFAULT_WARMUPS, maxIterations) : warmups;
        if (measured < 1 || measured > maxIterations) {
            throw new IllegalArgumentException("iterations must be between 1 and " + maxIterations
                    + " (synccontext.benchmark.max-iterations), was " + measured);
        }
        if (warm < 0 || warm > maxIterations) {
            throw new IllegalArgumentException("warmups must be between 0 and " + maxIterations
                    + " (synccontext.benchmark.max-iterations), was " + warm);
        }
        return new BenchmarkRequest(names, parsedModes, warm, measured, maxDuration);
    }

    private static List<String> split(String value, String field) {
        List<String> parts = Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
        if (parts.isEmpty()) {
            throw new IllegalArgumentException(field + " must be a comma-separated list, was '" + value + "'");
        }
        return parts;
    }

    private static Result error(int status, @Nullable String message) {
        return new Result(status, new ScenarioRunResponse.Refused(status, message));
    }

    private ScenarioRunResponse.Report response(BenchmarkReport report) {
        List<ScenarioRunResponse.Row> rows = new ArrayList<>();
        for (BenchmarkRow r : report.rows()) {
            int ops = Scenarios.byName(r.method()).operationsPerInvocation();
            rows.add(new ScenarioRunResponse.Row(r.method(), r.mode(), number(r.meanMicros()), number(r.errorMicros()),
                    number(r.stdDevMicros()), number(r.medianMicros()),
                    r.allocatedBytes() < 0 ? null : r.allocatedBytes(), r.iterations(),
                    new ScenarioRunResponse.Units("us", "B", "invocation", ops)));
        }
        return new ScenarioRunResponse.Report(rows, report.table(), report.truncated(), report.elapsed().toMillis(),
                contexts);
    }

    private static @Nullable Double number(double value) {
        return Double.isNaN(value) ? null : value;
    }

    /** An HTTP status and the JSON body that goes with it. */
    record Result(int status, ScenarioRunResponse body) {
    }
}
