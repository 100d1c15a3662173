package dev.synccontext.micrometer;

import dev.synccontext.ExecutorStatistics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * Exports an {@link ExecutorStatistics} (the default executor's) to Micrometer. Every meter reads the
 * executor when scraped; nothing is recorded per task.
 *
 * <table>
 *   <caption>Meters (Prometheus names in the last column)</caption>
 *   <tr><th>name</th><th>type</th><th>what</th><th>Prometheus</th></tr>
 *   <tr><td>{@code synccontext.executor.threads}</td><td>gauge, tag {@code state} ({@code running},
 *       {@code blocked}, {@code idle})</td><td>threads by what they do: running a drain, stuck in one
 *       (compensated for), or running none</td><td>{@code synccontext_executor_threads}</td></tr>
 *   <tr><td>{@code synccontext.executor.threads.max}</td><td>gauge</td><td>the cap on threads</td>
 *       <td>{@code synccontext_executor_threads_max}</td></tr>
 *   <tr><td>{@code synccontext.executor.queued}</td><td>gauge (tasks)</td><td>drains waiting for a thread</td>
 *       <td>{@code synccontext_executor_queued_tasks}</td></tr>
 *   <tr><td>{@code synccontext.executor.compensations}</td><td>counter</td><td>stuck threads compensated
 *       for</td><td>{@code synccontext_executor_compensations_total}</td></tr>
 *   <tr><td>{@code synccontext.executor.cap.reached}</td><td>counter</td><td>times queued work found no
 *       thread to wake or start because the cap was reached</td>
 *       <td>{@code synccontext_executor_cap_reached_total}</td></tr>
 * </table>
 * Blocked threads near {@code threads.max}, and any increase of {@code cap.reached}, mean callbacks wait
 * for blocked callbacks to return: find the blocked ones on the actuator endpoint.
 */
public final class ExecutorMetrics implements MeterBinder {

    private final ExecutorStatistics executor;
    private final Tags tags;

    /** Meters for {@code executor}, with {@code extraTags} on each. */
    public ExecutorMetrics(ExecutorStatistics executor, Iterable<Tag> extraTags) {
        this.executor = Objects.requireNonNull(executor, "executor");
        this.tags = Tags.of(extraTags);
    }

    /** Meters for {@code executor}. */
    public ExecutorMetrics(ExecutorStatistics executor) {
        this(executor, Tags.empty());
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        threads(registry, "running", ExecutorStatistics::runningThreads);
        threads(registry, "blocked", ExecutorStatistics::blockedThreads);
        threads(registry, "idle", ExecutorStatistics::idleThreads);
        Gauge.builder("synccontext.executor.threads.max", executor, ExecutorStatistics::maxThreads)
                .description("The default executor's cap on threads; above it, work waits for a blocked callback")
                .tags(tags).register(registry);
        Gauge.builder("synccontext.executor.queued", executor, ExecutorStatistics::queuedTasks)
                .description("Drains waiting in the default executor's queue for a thread")
                .baseUnit("tasks").tags(tags).register(registry);
        FunctionCounter.builder("synccontext.executor.compensations", executor, ExecutorStatistics::compensations)
                .description("Threads of the default executor found stuck in one task and compensated for")
                .tags(tags).register(registry);
        FunctionCounter.builder("synccontext.executor.cap.reached", executor, ExecutorStatistics::capReached)
                .description("Times queued work found no thread to wake or start: the default executor was at its cap")
                .tags(tags).register(registry);
    }

    private void threads(MeterRegistry registry, String state, ToDoubleFunction<ExecutorStatistics> count) {
        Gauge.builder("synccontext.executor.threads", executor, count)
                .description("Threads of the default executor: running a drain, blocked in one (compensated for), or idle")
                .tags(tags).tag("state", state).register(registry);
    }
}
