package dev.synccontext.registry;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.synccontext.ContextClock;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.SyncContextObserver;
import dev.synccontext.statistics.SyncContextStatistics;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/** A {@link SyncContextRegistry}'s contexts of one scope: their builder, statistics and the open ones. */
final class Lane {
    final String scope;
    final Set<RendererSyncContext> live = ConcurrentHashMap.newKeySet();
    final Collection<RendererSyncContext> liveView = Collections.unmodifiableSet(live);
    final SyncContextStatistics statistics;
    /** The statistics, or for the keyed scope a {@link KeyedActivity} over them. */
    final SyncContextObserver observer;
    @GuardedBy("this")
    private final RendererSyncContext.Builder builder;
    @GuardedBy("this")
    private long sequence;

    Lane(String scope, ContextTemplate template, ContextClock clock,
            List<Consumer<RendererSyncContext.Builder>> customizers) {
        this.scope = scope;
        this.statistics = new SyncContextStatistics(scope, () -> liveView, template.samplingInterval());
        RendererSyncContext.Builder builder = template.newBuilder().clock(clock);
        customizers.forEach(customizer -> customizer.accept(builder));
        this.observer = SyncContextRegistry.KEYED_SCOPE.equals(scope) ? new KeyedActivity(statistics) : statistics;
        this.builder = builder.observer(observer).scope(scope);
    }

    RendererSyncContext create(@Nullable String name) {
        RendererSyncContext context = build(name);
        live.add(context);
        return context;
    }

    synchronized RendererSyncContext build(@Nullable String name) {
        return builder.name(name != null ? name : scope + "-" + ++sequence).build();
    }

    boolean untrack(RendererSyncContext context) {
        return live.remove(context);
    }
}
