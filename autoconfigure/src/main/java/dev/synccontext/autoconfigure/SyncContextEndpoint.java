package dev.synccontext.autoconfigure;

import dev.synccontext.BlockedCallback;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.TaskOutcome;
import dev.synccontext.TaskPath;
import dev.synccontext.micrometer.SyncContextStatistics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * {@code /actuator/synccontext}: what the application's contexts are doing (GET) and, with
 * {@link SyncContextBenchmarkEndpoint} behaviour below, runs of the built-in scenarios (POST).
 */
@Endpoint(id = "synccontext")
public class SyncContextEndpoint {

    /** Frames of a blocked callback's stack shown by GET. */
    static final int TOP_FRAMES = 12;

    private final RendererSyncContextRegistry registry;
    private final Map<String, Object> settings;

    SyncContextEndpoint(RendererSyncContextRegistry registry, Map<String, Object> settings) {
        this.registry = registry;
        this.settings = settings;
    }

    @ReadOperation
    public Overview overview() {
        int contexts = 0;
        long queueDepth = 0;
        long unhandled = 0;
        long blockedTotal = 0;
        Map<String, Map<String, Long>> tasks = emptyTaskTable();
        Map<String, ScopeOverview> scopes = new LinkedHashMap<>();
        for (SyncContextStatistics s : registry.statistics()) {
            ScopeOverview scope = new ScopeOverview(s.contexts(), s.queueDepth(), taskTable(s), s.unhandled(),
                    s.blocked());
            scopes.put(s.scope(), scope);
            if (RendererSyncContextRegistry.BENCHMARK_SCOPE.equals(s.scope())) {
                continue; // scenario runs are not the application's work
            }
            contexts += scope.contexts();
            queueDepth += scope.queueDepth();
            unhandled += scope.unhandled();
            blockedTotal += scope.blockedTotal();
            scope.tasks().forEach((path, byOutcome) -> byOutcome.forEach(
                    (outcome, count) -> tasks.get(path).merge(outcome, count, Long::sum)));
        }
        List<Blocked> blocked = new ArrayList<>();
        for (BlockedCallback b : RendererSyncContext.blockedCallbacks()) {
            blocked.add(new Blocked(b.contextName(), b.threadName(), b.threadId(), b.runningFor().toMillis(),
                    b.topFrames(TOP_FRAMES).stream().map(StackTraceElement::toString).toList()));
        }
        return new Overview(contexts, queueDepth, tasks, blocked, unhandled, blockedTotal,
                registry.closingContexts(), registry.forcedCloses(), scopes, settings, ScenarioRuns.available());
    }

    private static Map<String, Map<String, Long>> emptyTaskTable() {
        Map<String, Map<String, Long>> table = new LinkedHashMap<>();
        for (TaskPath path : TaskPath.values()) {
            Map<String, Long> byOutcome = new LinkedHashMap<>();
            for (TaskOutcome outcome : TaskOutcome.values()) {
                byOutcome.put(lower(outcome), 0L);
            }
            table.put(lower(path), byOutcome);
        }
        return table;
    }

    private static Map<String, Map<String, Long>> taskTable(SyncContextStatistics s) {
        Map<String, Map<String, Long>> table = emptyTaskTable();
        for (TaskPath path : TaskPath.values()) {
            for (TaskOutcome outcome : TaskOutcome.values()) {
                table.get(lower(path)).put(lower(outcome), s.tasks(path, outcome));
            }
        }
        return table;
    }

    static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    /**
     * GET's answer. {@code contexts}, {@code queueDepth}, {@code tasks} (by path, then outcome),
     * {@code unhandled} and {@code blockedTotal} add up every scope but {@code benchmark}.
     */
    public record Overview(int contexts, long queueDepth, Map<String, Map<String, Long>> tasks,
            List<Blocked> blocked, long unhandled, long blockedTotal, int closing, long forcedCloses,
            Map<String, ScopeOverview> scopes, Map<String, Object> settings, ScenarioRuns.Available scenarios) {
    }

    /** The figures of one scope. */
    public record ScopeOverview(int contexts, long queueDepth, Map<String, Map<String, Long>> tasks,
            long unhandled, long blockedTotal) {
    }

    /** A callback running longer than its context's blocked threshold right now. */
    public record Blocked(String context, String thread, long threadId, long runningForMillis,
            List<String> topFrames) {
    }
}
