package dev.synccontext.micrometer;

import dev.synccontext.statistics.SyncContextStatistics;
import dev.synccontext.CallbackOutcome;
import dev.synccontext.CallbackPath;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import org.jspecify.annotations.Nullable;

/**
 * Exports one {@link SyncContextStatistics} (all contexts of one scope) to Micrometer. The meters are
 * aggregated, never one per context, and all carry the tag {@code scope}:
 *
 * <table>
 *   <caption>Meters (Prometheus names in the last column)</caption>
 *   <tr><th>name</th><th>type</th><th>what</th><th>Prometheus</th></tr>
 *   <tr><td>{@code synccontext.contexts}</td><td>gauge</td><td>open contexts</td>
 *       <td>{@code synccontext_contexts}</td></tr>
 *   <tr><td>{@code synccontext.queue.depth}</td><td>gauge (tasks)</td>
 *       <td>callbacks queued and not started, summed</td><td>{@code synccontext_queue_depth_tasks}</td></tr>
 *   <tr><td>{@code synccontext.tasks}</td><td>counter, tags {@code path} ({@code inline}, {@code queued},
 *       {@code nested}, {@code send}) and {@code outcome} ({@code success}, {@code failure},
 *       {@code cancelled}, {@code rejected})</td>
 *       <td>every callback, exact</td><td>{@code synccontext_tasks_total}</td></tr>
 *   <tr><td>{@code synccontext.task.wait.sampled}</td><td>timer</td><td>queue wait of sampled queued
 *       callbacks</td><td>{@code synccontext_task_wait_sampled_seconds_*}</td></tr>
 *   <tr><td>{@code synccontext.task.duration.sampled}</td><td>timer</td><td>run time of sampled callbacks</td>
 *       <td>{@code synccontext_task_duration_sampled_seconds_*}</td></tr>
 *   <tr><td>{@code synccontext.allocated}</td><td>counter (bytes)</td>
 *       <td>estimated bytes allocated by callbacks</td><td>{@code synccontext_allocated_bytes_total}</td></tr>
 *   <tr><td>{@code synccontext.allocation.rate}</td><td>gauge (bytes/s)</td>
 *       <td>estimated bytes per second allocated by callbacks, last 1-2 minutes</td>
 *       <td>{@code synccontext_allocation_rate_bytes_per_second}</td></tr>
 *   <tr><td>{@code synccontext.blocked}</td><td>counter</td><td>callbacks reported blocked</td>
 *       <td>{@code synccontext_blocked_total}</td></tr>
 *   <tr><td>{@code synccontext.unhandled}</td><td>counter</td><td>failures that reached the handler</td>
 *       <td>{@code synccontext_unhandled_total}</td></tr>
 * </table>
 * <p>The one list of the meters; the repository's documents link here rather than copy it.
 *
 * <h2>Why the names say "tasks"</h2>
 * The Java API says "callback" ({@link CallbackPath}, {@link CallbackOutcome}); the meter names keep
 * "tasks" ({@code synccontext.tasks}, {@code synccontext.task.*}, the queue depth's base unit) because they
 * are published: dashboards, recording rules and alerts query them by name (the project's own Grafana
 * dashboard among them), and a rename would silently empty those panels and stop those alerts. A task
 * here is one callback, and the tag values are the lower-case names of {@link CallbackPath} and
 * {@link CallbackOutcome}.
 *
 * <h2>Sampling</h2>
 * Counts are exact and come only from {@code synccontext.tasks}. The two timers see only the sampled
 * callbacks (about one in {@link SyncContextStatistics#samplingInterval()}, 256 by default), and their
 * names end in {@code .sampled} so that no dashboard mistakes their {@code _count} for a task count: it
 * is the number of samples, while their mean and max describe an unbiased sample of all callbacks.
 * {@code synccontext.task.wait.sampled} records queued callbacks only (the others never wait).
 * {@code synccontext.allocated} multiplies the sampled bytes by the interval (an estimate of all
 * bytes), and {@code synccontext.allocation.rate} is its recent rate: both add up across instances.
 * Bytes per callback is a ratio of two counters, {@code rate(synccontext_allocated_bytes_total) /
 * rate(synccontext_tasks_total)}, computed where they are aggregated, never a gauge of a mean (which
 * cannot be aggregated). Counters are function counters over the statistics, so nothing counted before
 * {@link #bindTo} is lost; timers record only samples taken after it.
 */
public final class SyncContextMetrics implements MeterBinder {

    private final SyncContextStatistics statistics;
    private final Tags tags;

    /** Metrics for the contexts {@code statistics} observes, tagged {@code scope}. */
    public SyncContextMetrics(SyncContextStatistics statistics) {
        this(statistics, Tags.empty());
    }

    /** Metrics with extra tags besides {@code scope}. */
    public SyncContextMetrics(SyncContextStatistics statistics, Iterable<Tag> extraTags) {
        this.statistics = Objects.requireNonNull(statistics, "statistics");
        this.tags = Tags.of(extraTags).and("scope", statistics.scope());
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        SyncContextStatistics s = statistics;
        gauge(registry, "synccontext.contexts", SyncContextStatistics::contexts, null, "Open RendererSyncContexts");
        gauge(registry, "synccontext.queue.depth", SyncContextStatistics::queueDepth, "tasks",
                "Callbacks queued and not yet started, summed over the open contexts");
        for (CallbackPath path : CallbackPath.values()) {
            for (CallbackOutcome outcome : CallbackOutcome.values()) {
                FunctionCounter.builder("synccontext.tasks", s, st -> st.tasks(path, outcome))
                        .description("Callbacks run or refused, by how they reached a thread and how they ended")
                        .tags(tags)
                        .tag("path", lower(path))
                        .tag("outcome", lower(outcome))
                        .register(registry);
            }
        }
        counter(registry, "synccontext.allocated", SyncContextStatistics::allocatedBytes, BaseUnits.BYTES,
                "Estimated bytes allocated by callbacks: sampled bytes times the sampling interval");
        gauge(registry, "synccontext.allocation.rate", SyncContextStatistics::allocatedBytesPerSecond,
                "bytes.per.second", "Estimated bytes per second allocated by callbacks over the last one to two minutes"
                        + " (sampled bytes times the sampling interval); sums across instances");
        counter(registry, "synccontext.blocked", SyncContextStatistics::blocked, null,
                "Callbacks that ran longer than the blocked threshold");
        counter(registry, "synccontext.unhandled", SyncContextStatistics::unhandled, null,
                "Callback failures that reached the unhandled-exception handler");
        Timer wait = Timer.builder("synccontext.task.wait.sampled")
                .description("Time sampled queued callbacks waited before they started (about 1 in "
                        + s.samplingInterval() + " callbacks; the count is of samples, not of callbacks)")
                .tags(tags)
                .register(registry);
        Timer duration = Timer.builder("synccontext.task.duration.sampled")
                .description("Run time of sampled callbacks, their synchronous part (about 1 in "
                        + s.samplingInterval() + " callbacks; the count is of samples, not of callbacks)")
                .tags(tags)
                .register(registry);
        s.addSink((path, waitNanos, runNanos) -> {
            if (path == CallbackPath.QUEUED) {
                wait.record(waitNanos, TimeUnit.NANOSECONDS);
            }
            duration.record(runNanos, TimeUnit.NANOSECONDS);
        });
    }

    private void gauge(MeterRegistry registry, String name, ToDoubleFunction<SyncContextStatistics> value,
            @Nullable String baseUnit, String description) {
        Gauge.builder(name, statistics, value).description(description).baseUnit(baseUnit).tags(tags)
                .register(registry);
    }

    private void counter(MeterRegistry registry, String name, ToDoubleFunction<SyncContextStatistics> value,
            @Nullable String baseUnit, String description) {
        FunctionCounter.builder(name, statistics, value).description(description).baseUnit(baseUnit).tags(tags)
                .register(registry);
    }

    private static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }
}
