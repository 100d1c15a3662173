package dev.synccontext.spring.durable;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A {@link StateStore} that passes every call to another: extend it to change a few steps (count, gate or, in a
 * test, break one on purpose) and keep the rest as the delegate does them. It adds no guarantee and removes none;
 * an override that changes a step must keep {@link StateStore}'s rules itself.
 */
public abstract class ForwardingStateStore implements StateStore {

    private final StateStore delegate;

    protected ForwardingStateStore(StateStore delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** The store every call not overridden goes to. */
    protected StateStore delegate() {
        return delegate;
    }

    @Override
    public Optional<NodeLease> acquireNodeLease(String nodeId, Duration ttl) {
        return delegate.acquireNodeLease(nodeId, ttl);
    }

    @Override
    public boolean renewNodeLease(NodeLease lease) {
        return delegate.renewNodeLease(lease);
    }

    @Override
    public void releaseNodeLease(NodeLease lease) {
        delegate.releaseNodeLease(lease);
    }

    @Override
    public Ownership acquire(String handle, NodeLease lease, Duration idleTimeout) {
        return delegate.acquire(handle, lease, idleTimeout);
    }

    @Override
    public WriteOutcome write(String handle, long token, byte[] snapshot, Duration idleTimeout) {
        return delegate.write(handle, token, snapshot, idleTimeout);
    }

    @Override
    public Optional<StoredSnapshot> read(String handle) {
        return delegate.read(handle);
    }

    @Override
    public boolean release(String handle, long token) {
        return delegate.release(handle, token);
    }

    @Override
    public void delete(String handle) {
        delegate.delete(handle);
    }

    @Override
    public boolean publish(String toNode, HandOffMessage message) {
        return delegate.publish(toNode, message);
    }

    @Override
    public Subscription subscribe(String nodeId, Consumer<HandOffMessage> listener) {
        return delegate.subscribe(nodeId, listener);
    }
}
