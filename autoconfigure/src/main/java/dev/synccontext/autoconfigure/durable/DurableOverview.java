package dev.synccontext.autoconfigure.durable;

import dev.synccontext.spring.durable.WriteOutcome;
import dev.synccontext.spring.durable.session.DurableContexts;
import dev.synccontext.spring.durable.session.DurableCounters;
import dev.synccontext.spring.durable.session.HandOffCause;
import dev.synccontext.spring.durable.session.StoreHealth;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The {@code durable} section of {@code /actuator/synccontext}: this node in the state store (its id, its lease's
 * epoch, whether it counts the lease as live, the sessions it owns), whether it reaches the store (and the last
 * error), and the counters the meters show ({@link DurableMetrics}). Read when GET is answered.
 *
 * @param node          this node's id in the store
 * @param leaseEpoch    the epoch of this node's lease, 0 when it has none it counts as live
 * @param leaseLive     whether this node counts its lease as live (it stops running durable sessions when not)
 * @param ownedSessions sessions this node owns in the store now
 * @param store         whether the store answers, and its last error
 * @param counters      what this node's durable state did since start
 */
public record DurableOverview(String node, long leaseEpoch, boolean leaseLive, int ownedSessions, Store store,
        Counters counters) {

    /**
     * @param type        the store's class (its simple name)
     * @param reachable   whether this node's last call to the store returned
     * @param failures    calls to the store that threw since start
     * @param lastError   the last call's exception that threw, or null
     * @param lastErrorAt when it threw (ISO-8601), or null
     */
    public record Store(String type, boolean reachable, long failures, @Nullable String lastError,
            @Nullable String lastErrorAt) {
    }

    /**
     * The counters of {@link DurableCounters}; {@code rejected} and {@code handOffs} by their meter tag.
     */
    public record Counters(long snapshotsWritten, long bytesWritten, long skippedClean, Map<String, Long> rejected,
            long overBudget, long restoreHits, long restoreMisses, Map<String, Long> handOffs,
            long handOffsRequested, long handOffsGiven, long handOffTimeouts, long leaseWaits,
            double leaseWaitSeconds) {
    }

    static DurableOverview of(DurableContexts durable, String storeType) {
        long epoch = durable.leaseEpoch();
        StoreHealth health = durable.storeHealth();
        Instant at = health.lastErrorAt();
        Store store = new Store(storeType, health.reachable(), health.failures(), health.lastError(),
                at == null ? null : at.toString());
        return new DurableOverview(durable.nodeId(), epoch, epoch != 0, durable.ownedSessions(), store,
                counters(durable.counters()));
    }

    private static Counters counters(DurableCounters c) {
        Map<String, Long> rejected = new LinkedHashMap<>();
        for (WriteOutcome outcome : WriteOutcome.values()) {
            if (outcome != WriteOutcome.ACCEPTED) {
                rejected.put(outcome.name().toLowerCase(Locale.ROOT).replace('_', '-'), c.rejected(outcome));
            }
        }
        rejected.put("codec", c.refusedByCodec());
        Map<String, Long> handOffs = new LinkedHashMap<>();
        for (HandOffCause cause : HandOffCause.values()) {
            handOffs.put(cause.tag(), c.handOffs(cause));
        }
        return new Counters(c.snapshotsWritten(), c.bytesWritten(), c.skippedClean(), rejected, c.overBudget(),
                c.restoreHits(), c.restoreMisses(), handOffs, c.handOffsRequested(), c.handOffsGiven(),
                c.handOffTimeouts(), c.leaseWaits(), c.leaseWaitNanos() / 1e9);
    }
}
