package dev.synccontext.spring.live;

import dev.synccontext.live.LiveChannel;
import dev.synccontext.live.LiveChannelGroup;
import dev.synccontext.live.LiveStatistics;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Builds live channels with the application's settings ({@code synccontext.live.*} in Boot), its executor (the one
 * contexts drain on: {@code synccontext.executor}) for the subscribers' drains, and the counters of a scope.
 * Every channel it builds belongs to its {@link #group()} while open: what the shutdown drain tells to go away.
 * A {@code @ContextScoped} bean keeps its channel and closes it when it is destroyed:
 *
 * <pre>{@code
 * Board(LiveChannels channels) { this.live = channels.open("board", this::snapshot); }
 * @PreDestroy void ended() { live.close(); }
 * }</pre>
 */
public final class LiveChannels {

    /** The scope of channels opened without one: state on HTTP sessions' contexts. */
    public static final String DEFAULT_SCOPE = "session";

    private final UnaryOperator<LiveChannel.Builder> settings;
    private final Executor executor;
    private final Map<String, LiveStatistics> statistics = new ConcurrentHashMap<>();
    private final List<Consumer<LiveStatistics>> scopeListeners = new CopyOnWriteArrayList<>();
    private final LiveChannelGroup group = new LiveChannelGroup();

    /** Channels with {@link LiveChannel.Builder}'s defaults, whose subscribers drain on {@code executor}. */
    public LiveChannels(Executor executor) {
        this(executor, UnaryOperator.identity());
    }

    /**
     * Channels whose builders {@code settings} sets up first (policy, buffer and replay capacity: what
     * {@code synccontext.live.*} sets in a Boot application), with subscribers draining on {@code executor}.
     */
    public LiveChannels(Executor executor, UnaryOperator<LiveChannel.Builder> settings) {
        this.settings = settings;
        this.executor = executor;
        statistics(DEFAULT_SCOPE);
        statistics("websocket");
    }

    /** A channel of scope {@value #DEFAULT_SCOPE} with the configured settings. */
    public LiveChannel open(String name, Supplier<?> snapshot) {
        return builder(name, DEFAULT_SCOPE).build(snapshot);
    }

    /** A builder with the configured settings and the counters of {@code scope}, to change before building. */
    public LiveChannel.Builder builder(String name, String scope) {
        return settings.apply(LiveChannel.builder(name)).executor(executor).statistics(statistics(scope)).group(group);
    }

    /** The open channels built here (and their subscribers). */
    public LiveChannelGroup group() {
        return group;
    }

    /** The counters of {@code scope} (created on first use). */
    public LiveStatistics statistics(String scope) {
        return statistics.computeIfAbsent(scope, name -> {
            LiveStatistics created = new LiveStatistics(name);
            scopeListeners.forEach(listener -> listener.accept(created));
            return created;
        });
    }

    /** Calls {@code listener} with every scope's counters, now and as scopes appear (the metrics binder). */
    public void onScope(Consumer<LiveStatistics> listener) {
        scopeListeners.add(listener);
        statistics.values().forEach(listener);
    }
}
