package dev.synccontext.spring.durable.session;

import dev.synccontext.spring.durable.HandOffMessage;
import dev.synccontext.spring.durable.NodeLease;
import dev.synccontext.spring.durable.Ownership;
import dev.synccontext.spring.durable.StateStore;
import dev.synccontext.spring.durable.StoredSnapshot;
import dev.synccontext.spring.durable.WriteOutcome;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The application's store, with every call's return or throw noted in a {@link StoreHealth}. Adds no behaviour:
 * answers and exceptions pass through unchanged.
 */
final class WatchedStateStore implements StateStore {

    private final StateStore store;
    private final StoreHealth health;

    WatchedStateStore(StateStore store, StoreHealth health) {
        this.store = store;
        this.health = health;
    }

    private <T> T watched(Supplier<T> call) {
        T answer;
        try {
            answer = call.get();
        } catch (RuntimeException failed) {
            health.failed(failed);
            throw failed;
        }
        health.succeeded();
        return answer;
    }

    @Override
    public Optional<NodeLease> acquireNodeLease(String nodeId, Duration ttl) {
        return watched(() -> store.acquireNodeLease(nodeId, ttl));
    }

    @Override
    public boolean renewNodeLease(NodeLease lease) {
        return watched(() -> store.renewNodeLease(lease));
    }

    @Override
    public void releaseNodeLease(NodeLease lease) {
        watched(() -> {
            store.releaseNodeLease(lease);
            return null;
        });
    }

    @Override
    public Ownership acquire(String handle, NodeLease lease, Duration idleTimeout) {
        return watched(() -> store.acquire(handle, lease, idleTimeout));
    }

    @Override
    public WriteOutcome write(String handle, long token, byte[] snapshot, Duration idleTimeout) {
        return watched(() -> store.write(handle, token, snapshot, idleTimeout));
    }

    @Override
    public Optional<StoredSnapshot> read(String handle) {
        return watched(() -> store.read(handle));
    }

    @Override
    public boolean release(String handle, long token) {
        return watched(() -> store.release(handle, token));
    }

    @Override
    public void delete(String handle) {
        watched(() -> {
            store.delete(handle);
            return null;
        });
    }

    @Override
    public boolean publish(String toNode, HandOffMessage message) {
        return watched(() -> store.publish(toNode, message));
    }

    @Override
    public Subscription subscribe(String nodeId, Consumer<HandOffMessage> listener) {
        return watched(() -> store.subscribe(nodeId, listener));
    }
}
