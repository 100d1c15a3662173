package dev.synccontext.spring.durable.session;

import dev.synccontext.ContextClock;
import dev.synccontext.spring.durable.NodeLease;
import dev.synccontext.spring.durable.StateStore;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * This node's lease in the store: taken at start, renewed every third of its ttl on the registry's clock (so a test
 * kit's virtual time drives it), released at stop. Counts the lease as live until the time it <em>sent</em> its last
 * acknowledged renewal plus the ttl minus a tenth of it (clock drift), never longer: the store has stopped accepting
 * this node's writes by then anyway.
 */
final class NodeLeaseKeeper {

    private static final Log LOG = LogFactory.getLog(NodeLeaseKeeper.class);

    private final StateStore store;
    private final ContextClock clock;
    private final Executor io;
    private final String nodeId;
    private final Duration ttl;
    private final StoreHealth health;
    private volatile @Nullable NodeLease lease;
    /** Local deadline, on {@link #clock}: sent time of the last acknowledged grant or renewal + ttl - margin. */
    private volatile long liveUntilNanos;
    private @Nullable Future<?> tick;
    private boolean stopped;

    NodeLeaseKeeper(StateStore store, ContextClock clock, Executor io, String nodeId, Duration ttl, StoreHealth health) {
        this.health = health;
        this.store = store;
        this.clock = clock;
        this.io = io;
        this.nodeId = StateStore.checkNodeId(nodeId);
        this.ttl = StateStore.checkTtl(ttl, "node lease ttl");
    }

    synchronized void start() {
        long sent = clock.nanoTime();
        NodeLease granted = store.acquireNodeLease(nodeId, ttl).orElseThrow(() -> new IllegalStateException(
                "The node id '" + nodeId + "' holds a live lease in the state store already: node ids are unique per"
                        + " process start; leave synccontext.durable.node-id unset to get a fresh one"));
        granted(granted, sent);
        schedule();
    }

    private void granted(NodeLease granted, long sentNanos) {
        lease = granted;
        liveUntilNanos = sentNanos + ttl.toNanos() - ttl.toNanos() / 10;
    }

    private void schedule() {
        tick = clock.schedule(() -> io.execute(this::renew), ttl.dividedBy(3));
    }

    private void renew() {
        NodeLease current = lease;
        synchronized (this) {
            if (stopped || current == null) {
                return;
            }
        }
        long sent = clock.nanoTime();
        try {
            boolean renewed = store.renewNodeLease(current);
            health.succeeded();
            if (renewed) {
                liveUntilNanos = sent + ttl.toNanos() - ttl.toNanos() / 10;
            } else {
                // The lease ended (a pause past the ttl, a store restart): every ownership under it ended too.
                LOG.warn("Node '" + nodeId + "' lost its lease in the state store; taking a new one. Its sessions"
                        + " are acquired again on their next callback");
                store.acquireNodeLease(nodeId, ttl).ifPresent(next -> granted(next, sent));
            }
        } catch (RuntimeException unreachable) {
            health.failed(unreachable);
            LOG.warn("Renewing node '" + nodeId + "''s lease failed; it counts as live until its local deadline",
                    unreachable);
        } finally {
            synchronized (this) {
                if (!stopped) {
                    schedule();
                }
            }
        }
    }

    /** The lease, if this node has one whose local deadline has not passed. */
    @Nullable NodeLease liveLease() {
        NodeLease current = lease;
        return current != null && clock.nanoTime() - liveUntilNanos < 0 ? current : null;
    }

    String nodeId() {
        return nodeId;
    }

    Duration ttl() {
        return ttl;
    }

    /** Stops renewing and ends the lease in the store (after the sessions were released). */
    void stop() {
        NodeLease current;
        synchronized (this) {
            stopped = true;
            if (tick != null) {
                tick.cancel(false);
            }
            current = lease;
            lease = null;
        }
        if (current != null) {
            store.releaseNodeLease(current);
        }
    }
}
