package dev.synccontext.test.cluster;

import dev.synccontext.spring.durable.HandOffMessage;
import dev.synccontext.spring.durable.NodeLease;
import dev.synccontext.spring.durable.Ownership;
import dev.synccontext.spring.durable.StateStore;
import dev.synccontext.spring.durable.StoredSnapshot;
import dev.synccontext.spring.durable.WriteOutcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One node instance's connection to the cluster's shared store. Hand-off messages reach the node through its gate
 * (a stalled node reads them when it resumes); a killed node's subscriptions end at once, so a message to it is
 * published to no one, as Redis answers for a dead subscriber.
 */
final class NodeStore implements StateStore {

    private final StateStore shared;
    private final NodeGate gate;
    private final List<Subscription> subscriptions = new ArrayList<>();

    NodeStore(StateStore shared, NodeGate gate) {
        this.shared = shared;
        this.gate = gate;
    }

    @Override
    public Optional<NodeLease> acquireNodeLease(String nodeId, Duration ttl) {
        return shared.acquireNodeLease(nodeId, ttl);
    }

    @Override
    public boolean renewNodeLease(NodeLease lease) {
        return shared.renewNodeLease(lease);
    }

    @Override
    public void releaseNodeLease(NodeLease lease) {
        shared.releaseNodeLease(lease);
    }

    @Override
    public Ownership acquire(String handle, NodeLease lease, Duration idleTimeout) {
        return shared.acquire(handle, lease, idleTimeout);
    }

    @Override
    public WriteOutcome write(String handle, long token, byte[] snapshot, Duration idleTimeout) {
        return shared.write(handle, token, snapshot, idleTimeout);
    }

    @Override
    public Optional<StoredSnapshot> read(String handle) {
        return shared.read(handle);
    }

    @Override
    public boolean release(String handle, long token) {
        return shared.release(handle, token);
    }

    @Override
    public void delete(String handle) {
        shared.delete(handle);
    }

    @Override
    public boolean publish(String toNode, HandOffMessage message) {
        return shared.publish(toNode, message);
    }

    @Override
    public synchronized Subscription subscribe(String nodeId, Consumer<HandOffMessage> listener) {
        Subscription subscription = shared.subscribe(nodeId, message -> gate.execute(() -> listener.accept(message)));
        subscriptions.add(subscription);
        return subscription;
    }

    /** The process is gone: nobody listens for its messages any more. */
    synchronized void kill() {
        subscriptions.forEach(Subscription::close);
        subscriptions.clear();
    }
}
