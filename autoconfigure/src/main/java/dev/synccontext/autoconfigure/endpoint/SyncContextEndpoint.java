package dev.synccontext.autoconfigure.endpoint;

import dev.synccontext.BlockedCallback;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.CallbackOutcome;
import dev.synccontext.CallbackPath;
import dev.synccontext.statistics.SyncContextStatistics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import dev.synccontext.autoconfigure.durable.DurableOverview;
import dev.synccontext.autoconfigure.durable.LargestSnapshot;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import dev.synccontext.live.LiveChannelGroup;
import dev.synccontext.autoconfigure.SyncContextProperties;
import dev.synccontext.spring.session.SessionContexts;
import dev.synccontext.registry.ContextTemplate;
import dev.synccontext.registry.SyncContextRegistry;

/**
 * {@code /actuator/synccontext}, GET: what the application's contexts are doing (counts, queue depth,
 * blocked callbacks, settings, and the scenarios a POST could run). Cheap: one pass over the open
 * contexts and the counters. {@code /actuator/synccontext/{scope}} is the same for one scope.
 *
 * <p><b>Details</b> (blocked callbacks' stacks and call sites, and the contexts and live channels that hold
 * the most) are shown as {@code synccontext.endpoint.show-details} says, like Boot's {@code health}:
 * {@code when-authorized} by default (an authenticated caller, in one of {@code synccontext.endpoint.roles}
 * when any are set), {@code never} or {@code always}. A caller that may not see them gets the counts, and each
 * blocked callback without its stack and call site; {@code detailsShown} says which answer it got.
 *
 * <p>Read-only by default ({@link Access#READ_ONLY}), so exposing it for monitoring, even with
 * {@code management.endpoints.web.exposure.include=*}, exposes no write operation. The POST that runs
 * benchmark scenarios is {@link SyncContextScenarioEndpoint}, the class the auto-configuration uses
 * instead of this one when {@code synccontext-scenarios} is on the class path; it answers only with
 * {@code management.endpoint.synccontext.access=unrestricted}. This class refers to no scenario type,
 * so an application without that jar loads it safely.
 */
@Endpoint(id = "synccontext", defaultAccess = Access.READ_ONLY)
public class SyncContextEndpoint {

    /** Frames of a blocked callback's stack shown by GET. */
    static final int TOP_FRAMES = 12;

    private final SyncContextRegistry registry;
    private final Map<String, Object> settings;

    private volatile @Nullable SessionContexts sessions;
    private volatile DetailsVisibility details = DetailsVisibility.ALWAYS;
    private volatile TopContexts top;
    private volatile @Nullable LiveChannelGroup liveChannels;
    private volatile Supplier<@Nullable DurableOverview> durable = () -> null;
    private volatile IntFunction<List<LargestSnapshot>> largestSnapshots = top -> List.of();

    SyncContextEndpoint(SyncContextRegistry registry, Map<String, Object> settings) {
        this.registry = registry;
        this.settings = settings;
        this.top = new TopContexts(registry, 10);
    }

    /** Who sees the details over HTTP and JMX, and how many contexts and channels they list; called once, when the bean is made. */
    void showDetails(DetailsVisibility details, int top) {
        this.details = details;
        this.top = new TopContexts(registry, top);
    }

    /** Lists the live channels of {@code group} that buffer the most, with the details; called once, when the bean is made. */
    void showLiveChannels(@Nullable LiveChannelGroup group) {
        this.liveChannels = group;
    }

    /** Shows this node's session contexts ({@link Sessions}) in GET; called once, when the bean is made. */
    void showSessions(@Nullable SessionContexts sessions) {
        this.sessions = sessions;
    }

    /**
     * Shows this node's durable state ({@link DurableOverview}) in GET, and with the details its sessions whose
     * snapshots are largest; called once, when the bean is made.
     */
    void showDurable(Supplier<@Nullable DurableOverview> durable, IntFunction<List<LargestSnapshot>> largest) {
        this.durable = durable;
        this.largestSnapshots = largest;
    }

    /** What GET lists under {@code scenarios}; {@code null} when this application cannot run them. */
    @Nullable ScenarioCatalog scenarioCatalog() {
        return null;
    }

    /** Whether a scenario run is in progress right now. */
    boolean scenarioRunInProgress() {
        return false;
    }

    /**
     * The overview: contexts, queue depth, tasks, blocked callbacks, settings and scenarios, and the details
     * when {@code caller} may see them.
     */
    @ReadOperation
    public Overview overview(SecurityContext caller) {
        return overview(details.shownTo(caller));
    }

    /** The overview with every detail: for code inside the application (an operation reached over HTTP or JMX is checked). */
    public Overview overview() {
        return overview(true);
    }

    /**
     * One scope: its figures, its blocked callbacks, and (with the details) its contexts that queue the most;
     * {@code null}, which the actuator answers with 404, for a scope that has no contexts and never had.
     */
    @ReadOperation
    public @Nullable ScopeDetail scope(@Selector String scope, SecurityContext caller) {
        SyncContextStatistics s = registry.statistics().stream().filter(st -> st.scope().equals(scope)).findFirst()
                .orElse(null);
        if (s == null) {
            return null;
        }
        boolean shown = details.shownTo(caller);
        List<Blocked> blocked = blockedNow(shown).stream().filter(b -> scope.equals(b.scope())).toList();
        return new ScopeDetail(scope, new ScopeOverview(s.contexts(), s.queueDepth(), taskTable(s), s.unhandled(),
                s.blocked()), blocked, shown, shown ? top.byQueuedCallbacks(scope::equals) : null);
    }

    private Overview overview(boolean shown) {
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
            if (SyncContextRegistry.BENCHMARK_SCOPE.equals(s.scope())) {
                continue; // scenario runs are not the application's work
            }
            contexts += scope.contexts();
            queueDepth += scope.queueDepth();
            unhandled += scope.unhandled();
            blockedTotal += scope.blockedTotal();
            scope.tasks().forEach((path, byOutcome) -> byOutcome.forEach(
                    (outcome, count) -> row(tasks, path).merge(outcome, count, Long::sum)));
        }
        return new Overview(contexts, queueDepth, tasks, blockedNow(shown), unhandled, blockedTotal,
                registry.closingContexts(), registry.forcedCloses(), scopes, settings, scenarioCatalog(),
                scenarioRunInProgress(), sessionsNow(), shown, shown ? topNow() : null, durable.get());
    }

    /** The callbacks blocked now; without their stacks and call sites unless {@code shown}. */
    private static List<Blocked> blockedNow(boolean shown) {
        List<Blocked> blocked = new ArrayList<>();
        for (BlockedCallback b : RendererSyncContext.blockedCallbacks()) {
            StackTraceElement site = b.callbackSite();
            blocked.add(new Blocked(b.contextName(), b.threadName(), b.threadId(), b.runningFor().toMillis(),
                    shown ? b.topFrames(TOP_FRAMES).stream().map(StackTraceElement::toString).toList() : List.of(),
                    b.scope(), shown && site != null ? site.toString() : null, b.virtualThread(),
                    b.queuedFor() == null ? null : b.queuedFor().toMillis()));
        }
        return blocked;
    }

    private Top topNow() {
        LiveChannelGroup group = liveChannels;
        return new Top(top.byQueuedCallbacks(scope -> !SyncContextRegistry.BENCHMARK_SCOPE.equals(scope)),
                group == null ? List.of() : top.byBufferedMessages(group), top.bySnapshotBytes(largestSnapshots));
    }

    private @Nullable Sessions sessionsNow() {
        SessionContexts s = sessions;
        return s == null ? null : Sessions.of(s);
    }

    private static Map<String, Map<String, Long>> emptyTaskTable() {
        Map<String, Map<String, Long>> table = new LinkedHashMap<>();
        for (CallbackPath path : CallbackPath.values()) {
            Map<String, Long> byOutcome = new LinkedHashMap<>();
            for (CallbackOutcome outcome : CallbackOutcome.values()) {
                byOutcome.put(lower(outcome), 0L);
            }
            table.put(lower(path), byOutcome);
        }
        return table;
    }

    private static Map<String, Map<String, Long>> taskTable(SyncContextStatistics s) {
        Map<String, Map<String, Long>> table = emptyTaskTable();
        for (CallbackPath path : CallbackPath.values()) {
            for (CallbackOutcome outcome : CallbackOutcome.values()) {
                row(table, lower(path)).put(lower(outcome), s.tasks(path, outcome));
            }
        }
        return table;
    }

    /** The outcome counts of {@code path} in a table built by {@link #emptyTaskTable()}, which has every path. */
    private static Map<String, Long> row(Map<String, Map<String, Long>> table, String path) {
        return Objects.requireNonNull(table.get(path), path);
    }

    /** The settings GET shows: what the application configured, as a user writes it. */
    static Map<String, Object> settings(SyncContextProperties properties, ContextTemplate template) {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("scope", lower(properties.getScope()));
        settings.put("executor", template.executorName());
        settings.put("maxBatch", template.maxBatch());
        settings.put("maxQueueDepth", template.maxQueueDepth());
        settings.put("blockedThreshold", template.blockedThreshold().toString());
        settings.put("shutdownTimeout", template.shutdownTimeout().toString());
        settings.put("contextPropagation", template.decorator() != null);
        settings.put("metricsEnabled", properties.getMetrics().isEnabled());
        settings.put("samplingInterval", template.samplingInterval());
        settings.put("benchmarkMaxIterations", properties.getBenchmark().getMaxIterations());
        settings.put("benchmarkMaxDuration", properties.getBenchmark().getMaxDuration().toString());
        return java.util.Collections.unmodifiableMap(settings);
    }

    static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    /**
     * GET's answer. {@code contexts}, {@code queueDepth}, {@code tasks} (by path, then outcome),
     * {@code unhandled} and {@code blockedTotal} add up every scope but {@code benchmark};
     * {@code scenarios} is {@code null} without {@code synccontext-scenarios}; {@code top} is {@code null}
     * unless {@code detailsShown}, as are the blocked callbacks' stacks and call sites;
     * {@code durable} is {@code null} without durable beans. An
     * {@link OperationResponseBody}, so the actuator's own JSON settings apply, never the
     * application's (a snake_case naming strategy does not rename these fields).
     */
    public record Overview(int contexts, long queueDepth, Map<String, Map<String, Long>> tasks,
            List<Blocked> blocked, long unhandled, long blockedTotal, int closing, long forcedCloses,
            Map<String, ScopeOverview> scopes, Map<String, Object> settings, @Nullable ScenarioCatalog scenarios,
            boolean scenarioRunInProgress, @Nullable Sessions sessions, boolean detailsShown, @Nullable Top top,
            @Nullable DurableOverview durable)
            implements OperationResponseBody {
    }

    /**
     * Who holds the memory on this node (every scope but {@code benchmark}): the contexts with the most queued
     * callbacks, the live channels with the most messages buffered for their subscribers, and the sessions whose
     * durable state has the largest snapshot ({@link LargestSnapshot}; empty without durable beans); largest
     * first, at most {@code synccontext.endpoint.top} each, only those holding any.
     */
    public record Top(List<QueuedContext> queuedCallbacks, List<BufferedChannel> liveBuffered,
            List<LargestSnapshot> durableSnapshots) {
    }

    /** A context and how many callbacks wait in its queue (not counting the one running). */
    public record QueuedContext(String context, String scope, int queuedCallbacks) {
    }

    /**
     * A live channel, its open subscribers, the messages buffered for them and not yet written (summed), and
     * the most any one of them ever had buffered.
     */
    public record BufferedChannel(String channel, int subscribers, long bufferedMessages, int highWater) {
    }

    /**
     * GET {@code /actuator/synccontext/{scope}}: the scope's figures, its callbacks blocked now, and, when
     * {@code detailsShown}, its contexts with the most queued callbacks (else {@code null}).
     */
    public record ScopeDetail(String scope, ScopeOverview figures, List<Blocked> blocked, boolean detailsShown,
            @Nullable List<QueuedContext> topQueued) implements OperationResponseBody {
    }

    /**
     * This node's HTTP-session contexts ({@code null} outside web applications): the node's name, open
     * session contexts, sessions taken over from another node with no context here ({@code handoffs}:
     * failovers), sessions that came from another node while their context here was still open
     * ({@code splits}: no session affinity, callbacks can overlap across nodes), and contexts released
     * because their session ended or because they were idle.
     */
    public record Sessions(String node, int contexts, long handoffs, long splits, long endedReleases,
            long idleEvictions, String idleTimeout) {

        static Sessions of(SessionContexts s) {
            return new Sessions(s.nodeId(), s.size(), s.handoffs(), s.splits(), s.endedReleases(), s.idleEvictions(),
                    s.idleTimeout().toString());
        }
    }

    /** The scenario names, which of them a POST runs by default, and the modes. */
    public record ScenarioCatalog(List<String> names, List<String> defaults, List<String> modes,
            String defaultMode) {
    }

    /** The figures of one scope. */
    public record ScopeOverview(int contexts, long queueDepth, Map<String, Map<String, Long>> tasks,
            long unhandled, long blockedTotal) {
    }

    /**
     * A callback running longer than its context's blocked threshold right now: see
     * {@link BlockedCallback} ({@code callbackSite} is the callback's own frame; {@code queuedForMillis}
     * is null when its queue wait was not sampled).
     */
    public record Blocked(String context, String thread, long threadId, long runningForMillis,
            List<String> topFrames, @Nullable String scope, @Nullable String callbackSite, boolean virtualThread,
            @Nullable Long queuedForMillis) {
    }
}
