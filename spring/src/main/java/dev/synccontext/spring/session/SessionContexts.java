package dev.synccontext.spring.session;

import dev.synccontext.ContextClock;
import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import dev.synccontext.registry.SyncContextRegistry;

/**
 * This node's contexts of HTTP sessions (and WebFlux {@code WebSession}s), found by the small handle
 * each session holds ({@link SessionHandle}), never by putting a context into the session.
 *
 * <h2>Guarantees</h2>
 * <ul>
 * <li><b>One context per session per node.</b> Every request of a session that this node serves gets
 * the same open context until the session ends or the context is evicted; two requests racing to be a
 * session's first both get the same handle and context. Callbacks of one session are therefore
 * serialized on each node; across nodes only with session affinity (see below).
 * <li><b>The session is written once.</b> The handle is set on the session's first use of a context
 * and again only when the session moves to another node; with session affinity, a session store such
 * as Spring Session Redis sees no write for it after the first request.
 * <li><b>Released when the session ends, on every node.</b> {@link #release(Object)} (called by the
 * session-destroyed listener: the container's, or Spring Session's events on every node), plus
 * <em>idle eviction</em>: a context that no request asked for during {@code idleTimeout} is released
 * (stores that publish no events, lost event messages, the node a session failed over from), plus
 * the registry's shutdown. Every path goes through {@link SyncContextRegistry#release}, a
 * graceful close, and each is idempotent.
 * </ul>
 *
 * <h2>Several nodes: diagnostics, not a distributed lock</h2>
 * The handle names the node that served the session last. When another node serves it, that node
 * counts a <em>hand-off</em> if it had no open context for the session (a failover: fine), or a
 * <em>split</em> if it still had one (the session is live on two nodes at once, so its callbacks can
 * overlap across them: the load balancer lacks session affinity). Splits are logged at WARN at most
 * once a minute, naming the fix. A lock per callback in a shared store is deliberately not offered: a
 * network round trip against a callback path of a few nanoseconds, no nesting across JVMs, and unsafe
 * without fencing tokens.
 *
 * <p>Thread-safe. The per-request cost is one map operation under the key's bin lock; callbacks never
 * touch this class.
 */
public final class SessionContexts implements AutoCloseable {

    private static final Log LOG = LogFactory.getLog(SessionContexts.class);
    private static final long WARN_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final SyncContextRegistry registry;
    private final String scope;
    private final String nodeId;
    private final Duration idleTimeout;
    private final long idleTimeoutNanos;
    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    /** Session id → key for sessions whose handle this node made: closes the race of two first requests. */
    private final Map<String, String> madeHere = new ConcurrentHashMap<>();
    private final AtomicLong handoffs = new AtomicLong();
    private final AtomicLong splits = new AtomicLong();
    private final AtomicLong endedReleases = new AtomicLong();
    private final AtomicLong idleEvictions = new AtomicLong();
    /** The registry's: request times, idle eviction and its timer all run on it (a test kit's virtual clock). */
    private final ContextClock clock;
    private final AtomicLong nextSplitWarning;
    /** The pending eviction tick, null when idle eviction is not started or was stopped. */
    private @Nullable Future<?> evictionTick;
    private long evictionPeriodNanos;

    /**
     * @param scope the registry scope of the contexts (their metrics tag), e.g. {@code session}
     * @param nodeId this node's name in handles, logs and the endpoint
     * @param idleTimeout how long a context may go without a request before it is released
     */
    public SessionContexts(SyncContextRegistry registry, String scope, String nodeId, Duration idleTimeout) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.scope = Objects.requireNonNull(scope, "scope");
        this.nodeId = requireNodeId(nodeId);
        this.idleTimeout = Objects.requireNonNull(idleTimeout, "idleTimeout");
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("idleTimeout must be positive, was " + idleTimeout);
        }
        this.idleTimeoutNanos = idleTimeout.toNanos();
        this.clock = registry.clock();
        this.nextSplitWarning = new AtomicLong(clock.nanoTime());
    }

    /** The clock request times and idle eviction are measured on (the registry's). */
    ContextClock clock() {
        return clock;
    }

    private static String requireNodeId(String nodeId) {
        Objects.requireNonNull(nodeId, "nodeId");
        if (nodeId.isBlank() || nodeId.indexOf('@') >= 0) {
            throw new IllegalArgumentException("nodeId must be non-blank and contain no '@', was '" + nodeId + "'");
        }
        return nodeId;
    }

    /** A session's context on this node and the handle value the session must store, if it changed. */
    record Binding(RendererSyncContext context, @Nullable String attributeToWrite) {
    }

    /**
     * The context of the session whose handle attribute is {@code attributeValue} ({@code null} on its
     * first use), created on this node if it has none, and marked as used now.
     *
     * @param sessionId the session's current id: only used to give racing first requests one key
     */
    Binding bind(@Nullable Object attributeValue, String sessionId) {
        SessionHandle handle = SessionHandle.parse(attributeValue);
        long now = clock.nanoTime();
        if (handle == null) {
            String key = madeHere.computeIfAbsent(sessionId, id -> SessionHandle.newKey());
            Entry entry = use(key, sessionId, now, false);
            return new Binding(entry.context, new SessionHandle(key, nodeId).value());
        }
        boolean moved = !handle.node().equals(nodeId);
        Entry entry = use(handle.key(), null, now, moved);
        return new Binding(entry.context, moved ? new SessionHandle(handle.key(), nodeId).value() : null);
    }

    /** Atomic per key with {@link #evictIdle(long)}: a request either keeps an entry alive or gets a new one. */
    private Entry use(String key, @Nullable String sessionId, long now, boolean moved) {
        return entries.compute(key, (k, existing) -> {
            if (existing != null && !existing.context.isClosed()) {
                if (moved) {
                    splitSeen();
                }
                existing.lastUsedNanos = now;
                return existing;
            }
            if (existing != null) {
                registry.release(existing.context); // closed behind our back: stop tracking it
            }
            if (moved) {
                handoffs.incrementAndGet();
            }
            return new Entry(registry.create(scope), sessionId, now);
        });
    }

    private void splitSeen() {
        long total = splits.incrementAndGet();
        long now = clock.nanoTime();
        long due = nextSplitWarning.get();
        if (now - due >= 0 && nextSplitWarning.compareAndSet(due, now + WARN_INTERVAL_NANOS)) {
            LOG.warn("A session came to node '" + nodeId + "' from another node while its context here was still"
                    + " open (a split; " + total + " so far, " + handoffs.get() + " hand-off(s)): its callbacks can"
                    + " run at the same time on two nodes, so they are not serialized. Fix: route each session to"
                    + " one node (session affinity, 'sticky sessions', in the load balancer); see 'Running on"
                    + " several nodes' in the synccontext README. This warning repeats at most once a minute.");
        }
    }

    /** The open context of the session whose handle attribute is {@code attributeValue}, if this node has one. */
    public Optional<RendererSyncContext> find(@Nullable Object attributeValue) {
        SessionHandle handle = SessionHandle.parse(attributeValue);
        Entry entry = handle == null ? null : entries.get(handle.key());
        return entry == null || entry.context.isClosed() ? Optional.empty() : Optional.of(entry.context);
    }

    /**
     * Releases (gracefully closes) this node's context of the session whose handle attribute is
     * {@code attributeValue}: the session ended. Idempotent; does nothing for a session this node never
     * served or a value that is not a handle.
     *
     * @return whether a context was released
     */
    public boolean release(@Nullable Object attributeValue) {
        SessionHandle handle = SessionHandle.parse(attributeValue);
        return handle != null && releaseKey(handle.key());
    }

    /** {@link #release(Object)} by the handle's key. */
    boolean releaseKey(String key) {
        Entry entry = entries.remove(key);
        if (entry == null) {
            return false;
        }
        forget(key, entry);
        endedReleases.incrementAndGet();
        return true;
    }

    /** Whether this node has an open context for the handle key. */
    boolean hasOpen(String key) {
        Entry entry = entries.get(key);
        return entry != null && !entry.context.isClosed();
    }

    /** Releases every context that no request asked for during the idle timeout; returns how many. */
    public int evictIdle() {
        return evictIdle(clock.nanoTime());
    }

    int evictIdle(long nowNanos) {
        int evicted = 0;
        for (Map.Entry<String, Entry> candidate : entries.entrySet()) {
            Entry entry = candidate.getValue();
            if (nowNanos - entry.lastUsedNanos < idleTimeoutNanos) {
                continue;
            }
            // Re-checked under the key's lock: a request that touched the entry meanwhile keeps it.
            boolean[] removed = new boolean[1];
            entries.computeIfPresent(candidate.getKey(), (k, current) -> {
                if (current == entry && nowNanos - current.lastUsedNanos >= idleTimeoutNanos) {
                    removed[0] = true;
                    return null;
                }
                return current;
            });
            if (removed[0]) {
                forget(candidate.getKey(), entry);
                idleEvictions.incrementAndGet();
                evicted++;
            }
        }
        return evicted;
    }

    private void forget(String key, Entry entry) {
        if (entry.sessionId != null) {
            madeHere.remove(entry.sessionId, key);
        }
        registry.release(entry.context);
    }

    /**
     * Runs {@link #evictIdle()} a few times per idle timeout (every eighth of it, between 50 ms and 30 s)
     * on the registry clock's timer (the system clock's is one daemon thread, {@code synccontext-timer};
     * an eviction never blocks it: releasing is a graceful close). Idempotent.
     */
    public synchronized void startIdleEviction() {
        if (evictionTick != null) {
            return;
        }
        evictionPeriodNanos = Math.min(Math.max(idleTimeoutNanos / 8, TimeUnit.MILLISECONDS.toNanos(50)),
                TimeUnit.SECONDS.toNanos(30));
        evictionTick = clock.schedule(this::evictionTick, Duration.ofNanos(evictionPeriodNanos));
    }

    /** One tick: evicts, then sets the next one (fixed delay), unless {@link #close()} stopped it meanwhile. */
    private void evictionTick() {
        try {
            evictIdle();
        } catch (RuntimeException e) {
            LOG.warn("Idle eviction of session contexts failed; it runs again at the next tick", e);
        }
        synchronized (this) {
            if (evictionTick != null) {
                evictionTick = clock.schedule(this::evictionTick, Duration.ofNanos(evictionPeriodNanos));
            }
        }
    }

    /** Stops idle eviction. The contexts themselves are closed by the registry's shutdown. */
    @Override
    public synchronized void close() {
        if (evictionTick != null) {
            evictionTick.cancel(false);
            evictionTick = null;
        }
    }

    /** This node's name, as stored in handles. */
    public String nodeId() {
        return nodeId;
    }

    /** How long a context may go without a request on this node before it is released. */
    public Duration idleTimeout() {
        return idleTimeout;
    }

    /** Sessions with an open context on this node. */
    public int size() {
        return entries.size();
    }

    /** Sessions this node took over from another node while it had no open context for them (failovers). */
    public long handoffs() {
        return handoffs.get();
    }

    /** Sessions that came from another node while this node still had their context open (no affinity). */
    public long splits() {
        return splits.get();
    }

    /** Contexts released because their session ended (invalidated or expired, as the listener reported it). */
    public long endedReleases() {
        return endedReleases.get();
    }

    /** Contexts released because no request asked for them during the idle timeout. */
    public long idleEvictions() {
        return idleEvictions.get();
    }

    /** One session's context on this node. */
    private static final class Entry {
        final RendererSyncContext context;
        final @Nullable String sessionId;
        volatile long lastUsedNanos;

        Entry(RendererSyncContext context, @Nullable String sessionId, long lastUsedNanos) {
            this.context = context;
            this.sessionId = sessionId;
            this.lastUsedNanos = lastUsedNanos;
        }
    }
}
