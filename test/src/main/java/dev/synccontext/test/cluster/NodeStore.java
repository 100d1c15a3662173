package dev.synccontext.test.cluster;

import dev.synccontext.spring.durable.ForwardingStateStore;
import dev.synccontext.spring.durable.HandOffMessage;
import dev.synccontext.spring.durable.StateStore;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One node instance's connection to the cluster's shared store. Hand-off messages reach the node through its gate
 * (a stalled node reads them when it resumes); a killed node's subscriptions end at once, so a message to it is
 * published to no one, as Redis answers for a dead subscriber.
 */
final class NodeStore extends ForwardingStateStore {

    private final NodeGate gate;
    private final List<Subscription> subscriptions = new ArrayList<>();

    NodeStore(StateStore shared, NodeGate gate) {
        super(shared);
        this.gate = gate;
    }

    @Override
    public synchronized Subscription subscribe(String nodeId, Consumer<HandOffMessage> listener) {
        Subscription subscription = delegate().subscribe(nodeId, message -> gate.execute(() -> listener.accept(message)));
        subscriptions.add(subscription);
        return subscription;
    }

    /** The process is gone: nobody listens for its messages any more. */
    synchronized void kill() {
        subscriptions.forEach(Subscription::close);
        subscriptions.clear();
    }
}
