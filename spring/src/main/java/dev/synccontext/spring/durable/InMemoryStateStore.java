package dev.synccontext.spring.durable;

import dev.synccontext.ContextClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * A {@link StateStore} in this JVM's memory: for a single node (state survives a session's context, not the
 * process) and for a test's cluster of several registries sharing one store and one virtual clock. It keeps every
 * guarantee of the contract, with time read from a {@link ContextClock}, so a test expires leases and sessions by
 * moving virtual time, deterministically, to the nanosecond.
 *
 * <p>Every operation is one step under one lock (the store's "server side"). Expired records are dropped when
 * next touched and in a sweep at every {@link #renewNodeLease}; the store sets no timer. Hand-off messages are
 * delivered on the executor given at construction, outside the lock.
 */
public final class InMemoryStateStore implements StateStore {

    private static final Log log = LogFactory.getLog(InMemoryStateStore.class);

    private final ContextClock clock;
    private final Executor deliveries;
    private final Object lock = new Object();
    /** The one token sequence: every epoch and token is drawn from it. Guarded by {@link #lock}. */
    private long lastIssued;
    private final Map<String, Node> nodes = new HashMap<>();
    private final Map<String, Session> sessions = new HashMap<>();
    private final Map<String, List<Consumer<HandOffMessage>>> subscribers = new HashMap<>();

    /** A store on {@code clock} that delivers hand-off messages on the publishing thread, after the publish step. */
    public InMemoryStateStore(ContextClock clock) {
        this(clock, Runnable::run);
    }

    /** A store on {@code clock} that delivers each hand-off message as one task on {@code deliveries}. */
    public InMemoryStateStore(ContextClock clock, Executor deliveries) {
        this.clock = clock;
        this.deliveries = deliveries;
    }

    /** An entry that lives while {@code now < expiresAt}, on the store's clock; an expired one counts as gone. */
    private abstract static class Expiring {
        long expiresAt;

        final boolean expiredAt(long now) {
            return now - expiresAt >= 0;
        }
    }

    /** A node lease. */
    private static final class Node extends Expiring {
        final long epoch;

        Node(long epoch, long expiresAt) {
            this.epoch = epoch;
            this.expiresAt = expiresAt;
        }
    }

    /** A session record: the owner fields are null once released; {@code token} stays as the last one issued. */
    private static final class Session extends Expiring {
        @Nullable String owner;
        long ownerEpoch;
        long token;
        long dataToken;
        byte @Nullable [] data;
    }

    @Override
    public Optional<NodeLease> acquireNodeLease(String nodeId, Duration ttl) {
        StateStore.checkNodeId(nodeId);
        StateStore.checkTtl(ttl, "node lease ttl");
        synchronized (lock) {
            long now = clock.nanoTime();
            if (liveNode(nodeId, now) != null) {
                return Optional.empty();
            }
            long epoch = issue(0);
            nodes.put(nodeId, new Node(epoch, now + ttl.toNanos()));
            return Optional.of(new NodeLease(nodeId, epoch, ttl));
        }
    }

    @Override
    public boolean renewNodeLease(NodeLease lease) {
        synchronized (lock) {
            long now = clock.nanoTime();
            sweep(now);
            Node node = liveNode(lease.nodeId(), now);
            if (node == null || node.epoch != lease.epoch()) {
                return false;
            }
            node.expiresAt = now + lease.ttl().toNanos();
            return true;
        }
    }

    @Override
    public void releaseNodeLease(NodeLease lease) {
        synchronized (lock) {
            Node node = liveNode(lease.nodeId(), clock.nanoTime());
            if (node != null && node.epoch == lease.epoch()) {
                nodes.remove(lease.nodeId());
            }
        }
    }

    @Override
    public Ownership acquire(String handle, NodeLease lease, Duration idleTimeout) {
        StateStore.checkHandle(handle);
        StateStore.checkTtl(idleTimeout, "idle timeout");
        synchronized (lock) {
            long now = clock.nanoTime();
            if (!isLive(lease.nodeId(), lease.epoch(), now)) {
                return new Ownership.LeaseLost(lease);
            }
            Session session = liveSession(handle, now);
            if (session == null) {
                session = new Session();
                sessions.put(handle, session);
            }
            long previous = session.token;
            String owner = session.owner;
            if (owner != null) {
                if (owner.equals(lease.nodeId()) && session.ownerEpoch == lease.epoch()) {
                    session.expiresAt = now + idleTimeout.toNanos();
                    return new Ownership.Acquired(previous, previous);
                }
                if (isLive(owner, session.ownerEpoch, now)) {
                    return new Ownership.OwnedElsewhere(owner, previous);
                }
            }
            session.owner = lease.nodeId();
            session.ownerEpoch = lease.epoch();
            session.token = issue(previous);
            session.expiresAt = now + idleTimeout.toNanos();
            return new Ownership.Acquired(session.token, previous);
        }
    }

    @Override
    public WriteOutcome write(String handle, long token, byte[] snapshot, Duration idleTimeout) {
        StateStore.checkHandle(handle);
        StateStore.checkTtl(idleTimeout, "idle timeout");
        byte[] copy = snapshot.clone();
        synchronized (lock) {
            long now = clock.nanoTime();
            Session session = liveSession(handle, now);
            if (session == null) {
                return WriteOutcome.NOT_OWNED;
            }
            if (session.token != token) {
                return WriteOutcome.STALE;
            }
            String owner = session.owner;
            if (owner == null) {
                return WriteOutcome.NOT_OWNED;
            }
            if (!isLive(owner, session.ownerEpoch, now)) {
                return WriteOutcome.LEASE_EXPIRED;
            }
            session.data = copy;
            session.dataToken = token;
            session.expiresAt = now + idleTimeout.toNanos();
            return WriteOutcome.ACCEPTED;
        }
    }

    @Override
    public Optional<StoredSnapshot> read(String handle) {
        StateStore.checkHandle(handle);
        synchronized (lock) {
            Session session = liveSession(handle, clock.nanoTime());
            byte[] data = session == null ? null : session.data;
            return session == null || data == null
                    ? Optional.empty()
                    : Optional.of(new StoredSnapshot(session.dataToken, data.clone()));
        }
    }

    @Override
    public boolean release(String handle, long token) {
        StateStore.checkHandle(handle);
        synchronized (lock) {
            Session session = liveSession(handle, clock.nanoTime());
            if (session == null || session.owner == null || session.token != token) {
                return false;
            }
            session.owner = null;
            session.ownerEpoch = 0;
            return true;
        }
    }

    @Override
    public void delete(String handle) {
        StateStore.checkHandle(handle);
        synchronized (lock) {
            sessions.remove(handle);
        }
    }

    @Override
    public boolean publish(String toNode, HandOffMessage message) {
        StateStore.checkNodeId(toNode);
        List<Consumer<HandOffMessage>> receivers;
        synchronized (lock) {
            List<Consumer<HandOffMessage>> listeners = subscribers.get(toNode);
            receivers = listeners == null ? List.of() : new ArrayList<>(listeners);
        }
        for (Consumer<HandOffMessage> receiver : receivers) {
            deliveries.execute(() -> deliver(receiver, message));
        }
        return !receivers.isEmpty();
    }

    private static void deliver(Consumer<HandOffMessage> receiver, HandOffMessage message) {
        try {
            receiver.accept(message);
        } catch (RuntimeException e) {
            log.error("A hand-off listener failed on " + message
                    + "; that message is lost, the sender's deadline covers it", e);
        }
    }

    @Override
    public Subscription subscribe(String nodeId, Consumer<HandOffMessage> listener) {
        StateStore.checkNodeId(nodeId);
        synchronized (lock) {
            subscribers.computeIfAbsent(nodeId, id -> new CopyOnWriteArrayList<>()).add(listener);
        }
        return () -> {
            synchronized (lock) {
                List<Consumer<HandOffMessage>> listeners = subscribers.get(nodeId);
                if (listeners != null) {
                    listeners.remove(listener);
                    if (listeners.isEmpty()) {
                        subscribers.remove(nodeId);
                    }
                }
            }
        };
    }

    /** The number of session records held, expired ones not yet swept included (for tests and metrics). */
    public int sessionCount() {
        synchronized (lock) {
            return sessions.size();
        }
    }

    /**
     * The next number of the token sequence, and larger than {@code previous} even if the sequence were behind
     * it (it cannot be here; Redis's counter can be evicted, and both stores keep the same rule).
     */
    private long issue(long previous) {
        lastIssued = Math.max(lastIssued, previous) + 1;
        return lastIssued;
    }

    private boolean isLive(String nodeId, long epoch, long now) {
        Node node = liveNode(nodeId, now);
        return node != null && node.epoch == epoch;
    }

    private @Nullable Node liveNode(String nodeId, long now) {
        return live(nodes, nodeId, now);
    }

    private @Nullable Session liveSession(String handle, long now) {
        return live(sessions, handle, now);
    }

    /** The entry under {@code key}, or null when there is none or it expired (then it is dropped). */
    private static <E extends Expiring> @Nullable E live(Map<String, E> entries, String key, long now) {
        E entry = entries.get(key);
        if (entry != null && entry.expiredAt(now)) {
            entries.remove(key);
            return null;
        }
        return entry;
    }

    private void sweep(long now) {
        sessions.values().removeIf(session -> session.expiredAt(now));
        nodes.values().removeIf(node -> node.expiredAt(now));
    }
}
