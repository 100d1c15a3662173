package dev.synccontext.cluster;

import dev.synccontext.spring.durable.HandOffMessage;
import dev.synccontext.spring.durable.NodeLease;
import dev.synccontext.spring.durable.Ownership;
import dev.synccontext.spring.durable.StateStore;
import dev.synccontext.spring.durable.StoredSnapshot;
import dev.synccontext.spring.durable.WriteOutcome;
import dev.synccontext.spring.durable.redis.RedisStateStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The state store of {@link DurableClusterApp}: the library's store, passed through in mode {@link Mode#REAL}, or
 * broken on purpose for a premise. Lives in this module's test sources only; the library has no such switch.
 */
final class PremiseStore implements StateStore, AutoCloseable {

    /** What the store does. */
    enum Mode {
        /** Everything as the library's store does it. */
        REAL,
        /**
         * No lease: {@code acquire} always grants, answering the owner's own token when another node owns the
         * session, so two nodes run one session's callbacks at once (and the store accepts both nodes' writes).
         */
        ALWAYS_GRANT,
        /**
         * No fence: a write the store refuses is written anyway, straight into the session's hash, and answered
         * accepted, so a stalled owner's late snapshot overwrites the new owner's.
         */
        UNFENCED
    }

    private final RedisStateStore delegate;
    private final StringRedisTemplate redis;
    private final String prefix;
    private final AtomicLong forced = new AtomicLong();
    private volatile Mode mode = Mode.REAL;

    PremiseStore(RedisStateStore delegate, StringRedisTemplate redis, String prefix) {
        this.delegate = delegate;
        this.redis = redis;
        this.prefix = prefix;
    }

    Mode mode() {
        return mode;
    }

    void mode(Mode mode) {
        this.mode = mode;
    }

    /** Writes the fence refused and {@link Mode#UNFENCED} stored anyway. */
    long forcedWrites() {
        return forced.get();
    }

    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public Ownership acquire(String handle, NodeLease lease, Duration idleTimeout) {
        Ownership ownership = delegate.acquire(handle, lease, idleTimeout);
        if (mode == Mode.ALWAYS_GRANT && ownership instanceof Ownership.OwnedElsewhere elsewhere) {
            return new Ownership.Acquired(elsewhere.ownerToken(), elsewhere.ownerToken());
        }
        return ownership;
    }

    @Override
    public WriteOutcome write(String handle, long token, byte[] snapshot, Duration idleTimeout) {
        WriteOutcome outcome = delegate.write(handle, token, snapshot, idleTimeout);
        if (mode == Mode.UNFENCED && outcome != WriteOutcome.ACCEPTED) {
            // The key layout of spring/DURABLE-STATE.md ("Redis key layout"): the session's hash.
            redis.opsForHash().putAll(prefix + "session:" + handle, Map.of("data",
                    new String(snapshot, StandardCharsets.UTF_8), "dataToken", Long.toString(token)));
            forced.incrementAndGet();
            return WriteOutcome.ACCEPTED;
        }
        return outcome;
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
