package dev.synccontext.autoconfigure.durable;

import dev.synccontext.spring.durable.WriteOutcome;
import dev.synccontext.spring.durable.session.DurableContexts;
import dev.synccontext.spring.durable.session.DurableCounters;
import dev.synccontext.spring.durable.session.HandOffCause;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * Meters of this node's durable state, one series each (never one per session), read from
 * {@link DurableContexts#counters()} when scraped: nothing is counted twice and the snapshot path pays only its
 * atomic increments. In Prometheus (a counter gains {@code _total}):
 *
 * <ul>
 *   <li>{@code synccontext_durable_snapshots_written_total}, {@code synccontext_durable_snapshot_bytes_total}:
 *       snapshots the store accepted and their bytes;</li>
 *   <li>{@code synccontext_durable_snapshot_size_bytes_count}, {@code _sum} and {@code _max}: the size of each
 *       snapshot the store accepted, a distribution summary (recorded by the thread that wrote it; Boot's
 *       {@code management.metrics.distribution.*} properties add percentiles or a histogram);</li>
 *   <li>{@code synccontext_durable_snapshots_skipped_clean_total}: checkpoints that found nothing changed;</li>
 *   <li>{@code synccontext_durable_writes_rejected_total{reason}}: {@code stale}, {@code not-owned},
 *       {@code lease-expired} (the store's fence) and {@code codec} (the codec refused to write or restore);</li>
 *   <li>{@code synccontext_durable_snapshots_over_budget_total}: snapshots not written for being over the size
 *       budget (each session's first is logged at WARN naming its beans);</li>
 *   <li>{@code synccontext_durable_restores_hit_total}, {@code synccontext_durable_restores_miss_total};</li>
 *   <li>{@code synccontext_durable_handoffs_total{cause}}: sessions that came here from another node, by
 *       {@link HandOffCause}: {@code deploy}, {@code failure}, {@code no-affinity};</li>
 *   <li>{@code synccontext_durable_handoffs_requested_total}, {@code synccontext_durable_handoffs_given_total},
 *       {@code synccontext_durable_handoffs_timed_out_total}: hand-off requests sent, answered for other nodes,
 *       and answered 503 here;</li>
 *   <li>{@code synccontext_durable_lease_waits_seconds_count} and {@code _sum}: waits for another node's
 *       session;</li>
 *   <li>{@code synccontext_durable_sessions_owned}, {@code synccontext_durable_store_reachable} (1 or 0),
 *       {@code synccontext_durable_store_failures_total}.</li>
 * </ul>
 */
record DurableMetrics(DurableContexts durable) implements MeterBinder {

    @Override
    public void bindTo(MeterRegistry registry) {
        DurableCounters c = durable.counters();
        counter(registry, "synccontext.durable.snapshots.written", c, DurableCounters::snapshotsWritten,
                "Snapshots of sessions' durable beans the state store accepted");
        FunctionCounter.builder("synccontext.durable.snapshot.bytes", c, DurableCounters::bytesWritten)
                .baseUnit("bytes").description("Bytes of the snapshots the state store accepted").register(registry);
        DistributionSummary sizes = DistributionSummary.builder("synccontext.durable.snapshot.size").baseUnit("bytes")
                .description("Size of each snapshot the state store accepted").register(registry);
        c.onSnapshotWritten(sizes::record);
        counter(registry, "synccontext.durable.snapshots.skipped.clean", c, DurableCounters::skippedClean,
                "Checkpoints whose snapshot equalled the last one: nothing written");
        for (WriteOutcome outcome : WriteOutcome.values()) {
            if (outcome != WriteOutcome.ACCEPTED) {
                FunctionCounter.builder("synccontext.durable.writes.rejected", c, counters -> counters.rejected(outcome))
                        .tag("reason", outcome.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'))
                        .description("Snapshots refused: by the store's fence, or by the codec").register(registry);
            }
        }
        FunctionCounter.builder("synccontext.durable.writes.rejected", c, DurableCounters::refusedByCodec)
                .tag("reason", "codec").description("Snapshots refused: by the store's fence, or by the codec")
                .register(registry);
        counter(registry, "synccontext.durable.snapshots.over.budget", c, DurableCounters::overBudget,
                "Snapshots not written for being over synccontext.durable.size-budget");
        counter(registry, "synccontext.durable.restores.hit", c, DurableCounters::restoreHits,
                "Sessions acquired here that had a snapshot to restore");
        counter(registry, "synccontext.durable.restores.miss", c, DurableCounters::restoreMisses,
                "Sessions acquired here with nothing stored");
        for (HandOffCause cause : HandOffCause.values()) {
            FunctionCounter.builder("synccontext.durable.handoffs", c, counters -> counters.handOffs(cause))
                    .tag("cause", cause.tag()).description("Sessions that came to this node from another one")
                    .register(registry);
        }
        counter(registry, "synccontext.durable.handoffs.requested", c, DurableCounters::handOffsRequested,
                "Hand-offs this node asked another node for");
        counter(registry, "synccontext.durable.handoffs.given", c, DurableCounters::handOffsGiven,
                "Sessions this node handed over on another node's request");
        counter(registry, "synccontext.durable.handoffs.timed.out", c, DurableCounters::handOffTimeouts,
                "Requests answered 503 because the owner did not hand the session over in time");
        FunctionTimer.builder("synccontext.durable.lease.waits", c, DurableCounters::leaseWaits,
                DurableCounters::leaseWaitNanos, TimeUnit.NANOSECONDS)
                .description("Waits for another node to hand a session over").register(registry);
        Gauge.builder("synccontext.durable.sessions.owned", durable, DurableContexts::ownedSessions)
                .description("Sessions this node owns in the state store").register(registry);
        Gauge.builder("synccontext.durable.store.reachable", durable, d -> d.storeHealth().reachable() ? 1 : 0)
                .description("Whether this node's last call to the state store returned (1) or threw (0)")
                .register(registry);
        FunctionCounter.builder("synccontext.durable.store.failures", durable, d -> d.storeHealth().failures())
                .description("Calls to the state store that threw").register(registry);
    }

    private static void counter(MeterRegistry registry, String name, DurableCounters counters,
            ToDoubleFunction<DurableCounters> value, String description) {
        FunctionCounter.builder(name, counters, value).description(description).register(registry);
    }
}
