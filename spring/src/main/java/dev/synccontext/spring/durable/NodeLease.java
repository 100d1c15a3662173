package dev.synccontext.spring.durable;

import java.time.Duration;

/**
 * A node's lease in a {@link StateStore}: the one record the store keeps alive for a node, whatever the number
 * of sessions it owns. Every ownership the node acquires points to this lease by its {@code epoch}; when the
 * lease ends (expiry, release, or replacement by a new lease for the same node id), every one of those
 * ownerships ends with it, in one step.
 *
 * @param nodeId the node's id, unique per process start (a restarted process takes a new one)
 * @param epoch  drawn from the store's token sequence when the lease was granted: larger than every token and
 *               epoch the store issued before, so a lease granted again after expiry is told apart from the old
 *               one even under the same node id
 * @param ttl    how long the lease lives without a renewal
 */
public record NodeLease(String nodeId, long epoch, Duration ttl) {

    public NodeLease {
        StateStore.checkNodeId(nodeId);
        if (epoch <= 0) {
            throw new IllegalArgumentException("A node lease's epoch is positive (the store issues it), was " + epoch);
        }
        StateStore.checkTtl(ttl, "node lease ttl");
    }

    /** Renew before this much of the lease has passed: a third of the ttl leaves two attempts before expiry. */
    public Duration renewalPeriod() {
        return ttl.dividedBy(3);
    }
}
