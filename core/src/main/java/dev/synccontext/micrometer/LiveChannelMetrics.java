package dev.synccontext.micrometer;

import dev.synccontext.live.LiveStatistics;
import dev.synccontext.live.OverflowPolicy;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Locale;
import java.util.Objects;

/**
 * Exports one {@link LiveStatistics} (every live channel of one scope) to Micrometer: aggregated, never one
 * series per session or subscriber; every meter carries the tag {@code scope}.
 *
 * <table>
 *   <caption>Meters (Prometheus names in the last column)</caption>
 *   <tr><th>name</th><th>type</th><th>what</th><th>Prometheus</th></tr>
 *   <tr><td>{@code synccontext.live.subscribers}</td><td>gauge</td><td>open subscribers</td>
 *       <td>{@code synccontext_live_subscribers}</td></tr>
 *   <tr><td>{@code synccontext.live.buffered}</td><td>gauge (messages)</td><td>messages buffered and not
 *       yet written, summed over subscribers</td><td>{@code synccontext_live_buffered_messages}</td></tr>
 *   <tr><td>{@code synccontext.live.published}</td><td>counter (messages)</td><td>messages published</td>
 *       <td>{@code synccontext_live_published_messages_total}</td></tr>
 *   <tr><td>{@code synccontext.live.written}</td><td>counter (messages)</td><td>messages handed to a
 *       transport, per subscriber</td><td>{@code synccontext_live_written_messages_total}</td></tr>
 *   <tr><td>{@code synccontext.live.dropped}</td><td>counter (messages), tag {@code policy}
 *       ({@code drop-oldest}, {@code coalesce-by-key})</td><td>messages a policy discarded</td>
 *       <td>{@code synccontext_live_dropped_messages_total}</td></tr>
 *   <tr><td>{@code synccontext.live.slow.disconnects}</td><td>counter</td><td>subscribers disconnected by
 *       {@code disconnect} because their buffer was full, or by their transport's own bound (Spring's STOMP
 *       session limits)</td>
 *       <td>{@code synccontext_live_slow_disconnects_total}</td></tr>
 *   <tr><td>{@code synccontext.live.reconnects}</td><td>counter, tag {@code outcome} ({@code replayed},
 *       {@code snapshot})</td><td>subscriptions served from the replay buffer, or with a snapshot (new
 *       subscribers included)</td><td>{@code synccontext_live_reconnects_total}</td></tr>
 * </table>
 */
public final class LiveChannelMetrics implements MeterBinder {

    private final LiveStatistics statistics;
    private final Tags tags;

    public LiveChannelMetrics(LiveStatistics statistics) {
        this.statistics = Objects.requireNonNull(statistics, "statistics");
        this.tags = Tags.of("scope", statistics.scope());
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        LiveStatistics s = statistics;
        Gauge.builder("synccontext.live.subscribers", s, LiveStatistics::subscribers)
                .description("Open live-channel subscribers").tags(tags).register(registry);
        Gauge.builder("synccontext.live.buffered", s, LiveStatistics::buffered)
                .description("Messages buffered for subscribers and not yet written")
                .baseUnit("messages").tags(tags).register(registry);
        FunctionCounter.builder("synccontext.live.published", s, LiveStatistics::published)
                .description("Messages published to live channels").baseUnit("messages").tags(tags)
                .register(registry);
        FunctionCounter.builder("synccontext.live.written", s, LiveStatistics::written)
                .description("Messages handed to a subscriber's transport").baseUnit("messages").tags(tags)
                .register(registry);
        for (OverflowPolicy policy : new OverflowPolicy[] {OverflowPolicy.DROP_OLDEST, OverflowPolicy.COALESCE_BY_KEY}) {
            FunctionCounter.builder("synccontext.live.dropped", s, st -> st.dropped(policy))
                    .description("Messages an overflow policy discarded from a subscriber's buffer")
                    .baseUnit("messages").tags(tags).tag("policy", policy.name().toLowerCase(Locale.ROOT)
                            .replace('_', '-'))
                    .register(registry);
        }
        FunctionCounter.builder("synccontext.live.slow.disconnects", s, LiveStatistics::slowDisconnects)
                .description("Subscribers disconnected because their buffer (or their connection's own bound) was full").tags(tags)
                .register(registry);
        FunctionCounter.builder("synccontext.live.reconnects", s, LiveStatistics::resumed)
                .description("Subscriptions served from the replay buffer or with a snapshot").tags(tags)
                .tag("outcome", "replayed").register(registry);
        FunctionCounter.builder("synccontext.live.reconnects", s, LiveStatistics::snapshots)
                .description("Subscriptions served from the replay buffer or with a snapshot").tags(tags)
                .tag("outcome", "snapshot").register(registry);
    }
}
