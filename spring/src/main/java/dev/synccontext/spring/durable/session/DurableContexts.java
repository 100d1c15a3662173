package dev.synccontext.spring.durable.session;

import dev.synccontext.ContextClock;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.spring.durable.DurableType;
import dev.synccontext.spring.durable.HandOffMessage;
import dev.synccontext.spring.durable.NodeLease;
import dev.synccontext.spring.durable.SnapshotCodec;
import dev.synccontext.spring.durable.SnapshotRefusedException;
import dev.synccontext.spring.durable.StateStore;
import dev.synccontext.spring.scope.ContextBeanTracking;
import dev.synccontext.spring.session.SessionContexts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * Keeps the {@link Durable} context-scoped beans of this node's sessions in a {@link StateStore}: one owner per
 * session across the cluster, a snapshot at quiescence, a restore before first use, a final snapshot and release
 * when a session's context is released.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Restore before first use.</b> The first time a durable bean of a session is resolved on this node, in
 *       that session's context, the node acquires the session in the store (asking the owner to hand it over if
 *       another node has it) and sets the stored state on the new instance, before the call that resolved it
 *       proceeds. A session whose callbacks never touch a durable bean costs no store call.</li>
 *   <li><b>Checkpoint at quiescence, only after a change.</b> A call through a durable bean's proxy arms one
 *       checkpoint, queued on the context {@link DurableSettings#debounce()} later (a burst of calls meanwhile costs
 *       one); it runs when the callbacks queued before it are done (stepping back behind newly queued ones a few
 *       times), so it reads the beans between callbacks: a consistent cut without a lock. The running callback
 *       leaves the context idle, so the next request still runs inline. Its bytes are compared with the last
 *       snapshot's, once per checkpoint, and skipped when equal; otherwise written off the context at once.</li>
 *   <li><b>Fenced.</b> Every write carries the session's token; a refused write (another node took the session, or
 *       this node's lease ended) is logged at WARN naming the session and node, counted, and this node's copy is
 *       dropped (its context released), so the session's next request here restores the stored state.</li>
 *   <li><b>Release writes last.</b> When the session's context is closed for good (the shutdown drain, a hand-off
 *       to another node, idle eviction) its last callback, after every callback accepted before, takes the final
 *       snapshot, writes it and releases the session in the store; when the session ended it deletes the record
 *       instead. In the shutdown drain this happens before the live channels go away, so a client that reconnects
 *       to another node finds its session released there, with every change it was answered for.</li>
 * </ul>
 *
 * <p>Nothing here touches a context that has no durable bean: the scope tells this class only of durable beans,
 * and core is unchanged (the checkpoint is an ordinary post).
 */
public final class DurableContexts implements ContextBeanTracking, SessionContexts.Listener, AutoCloseable {

    private static final Log LOG = LogFactory.getLog(DurableContexts.class);

    private final SyncContextRegistry registry;
    private final StateStore store;
    private final SnapshotCodec codec;
    private final JsonMapper mapper;
    private final Map<String, DurableType<?>> durableBeans;
    private final DurableSettings settings;
    private final Executor writer;
    private final ContextClock clock;
    private final NodeLeaseKeeper lease;
    private final DurableCounters counters = new DurableCounters();
    private final StoreHealth storeHealth;
    private final Map<RendererSyncContext, DurableSession> byContext = new ConcurrentHashMap<>();
    private final Map<String, DurableSession> byHandle = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<Void>> releaseWaits = new ConcurrentHashMap<>();
    private StateStore.@Nullable Subscription subscription;

    /**
     * @param durableBeans bean name → its durable type (also registered with {@code codec})
     * @param writer       where snapshots are written (off every context); a small pool or virtual threads
     */
    public DurableContexts(SyncContextRegistry registry, StateStore store, SnapshotCodec codec, JsonMapper mapper,
            Map<String, DurableType<?>> durableBeans, DurableSettings settings, String nodeId, Executor writer) {
        this(registry, store, codec, mapper, durableBeans, settings, nodeId, writer, writer);
    }

    /**
     * @param renewer where the node lease is renewed; a thread of its own in production, since a renewal queued
     *                behind a burst of snapshot writes can let the lease lapse (a test on a virtual clock may pass
     *                {@code writer})
     */
    public DurableContexts(SyncContextRegistry registry, StateStore store, SnapshotCodec codec, JsonMapper mapper,
            Map<String, DurableType<?>> durableBeans, DurableSettings settings, String nodeId, Executor writer,
            Executor renewer) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.store = Objects.requireNonNull(store, "store");
        this.codec = Objects.requireNonNull(codec, "codec");
        this.mapper = Objects.requireNonNull(mapper, "mapper");
        this.durableBeans = Map.copyOf(durableBeans);
        this.settings = Objects.requireNonNull(settings, "settings");
        this.writer = Objects.requireNonNull(writer, "writer");
        this.clock = registry.clock();
        this.storeHealth = new StoreHealth(clock);
        this.lease = new NodeLeaseKeeper(store, clock, Objects.requireNonNull(renewer, "renewer"), nodeId,
                settings.nodeLeaseTtl(), storeHealth);
    }

    /**
     * Takes the node lease, subscribes to hand-off messages and hooks into the registry: a session's final snapshot
     * and release run last on its context, either in the shutdown drain (after its accepted callbacks, before the
     * live channels go away) or when the context is released, whichever comes first.
     */
    public void start() {
        lease.start();
        subscription = store.subscribe(lease.nodeId(), this::onMessage);
        registry.onShutdownDrain(this::lastCallback);
        registry.onRelease(this::lastCallback);
    }

    /** The session's final snapshot and release, to run last on {@code context}; null if another path has it. */
    private @Nullable Runnable lastCallback(RendererSyncContext context) {
        DurableSession session = byContext.get(context);
        if (session == null || !session.claimFinish()) {
            return null; // not a session's, or its drain callback was queued first and runs last already
        }
        // Mapped until its last callback: the callbacks queued before it still meet the session's checks (a
        // dropped copy refuses them) instead of a bean nobody watches.
        return () -> {
            boolean finished = false;
            try {
                session.finish(); // settles the session once its final write and release are done
                finished = true;
            } finally {
                byContext.remove(context, session);
                if (!finished) {
                    settled(session); // a successor must not wait for what will never come
                }
            }
        };
    }

    /**
     * Graceful shutdown: releases every session's context still here (each writes its final snapshot and releases
     * the session after its queued callbacks), waits for them up to the lease's ttl, then ends the node lease. When
     * the starter's shutdown drain ran, the sessions wrote and released there already, before their live channels
     * went away, and this only ends the lease.
     */
    @Override
    public void close() {
        List<RendererSyncContext> contexts = new ArrayList<>();
        for (DurableSession session : byContext.values()) {
            contexts.add(session.context);
            registry.release(session.context);
        }
        long deadline = clock.nanoTime() + lease.ttl().toNanos();
        for (RendererSyncContext context : contexts) {
            try {
                context.awaitTermination(Duration.ofNanos(Math.max(0, deadline - clock.nanoTime())));
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                break;
            } catch (IllegalStateException calledFromInside) {
                // closed from a callback of that context: it finishes on its own
            }
        }
        StateStore.Subscription s = subscription;
        if (s != null) {
            s.close();
        }
        lease.stop();
    }

    /** Requests of this node waiting now for another node to hand a session over; for monitoring. */
    public int handOffWaits() {
        return releaseWaits.size();
    }

    /** What this node did so far. */
    public DurableCounters counters() {
        return counters;
    }

    /** Whether this node reaches its state store, as its last store call found it (for a health indicator). */
    public StoreHealth storeHealth() {
        return storeHealth;
    }

    /** This node's id in the store. */
    public String nodeId() {
        return lease.nodeId();
    }

    /** The epoch of this node's lease while it counts as live here, else 0 (not yet taken, ran out, or stopped). */
    public long leaseEpoch() {
        NodeLease live = lease.liveLease();
        return live == null ? 0 : live.epoch();
    }

    /** Sessions this node owns in the store now (acquired, not yet released or dropped). One pass; for monitoring. */
    public int ownedSessions() {
        int owned = 0;
        for (DurableSession session : byContext.values()) {
            if (session.owned() && !session.dropped) {
                owned++;
            }
        }
        return owned;
    }

    /**
     * The {@code n} sessions of this node whose last snapshot is largest, largest first (ties by context name): who
     * holds the most durable state here, for monitoring. One pass over this node's sessions that allocates nothing
     * per session: each publishes its last snapshot as one immutable object, ranked in a heap of at most {@code n};
     * only those {@code n} are then read for their beans' shares (each at most the size budget). Sessions without a
     * snapshot yet, or whose copy was dropped, are left out. Each figure is that session's own when it was read.
     *
     * @throws IllegalArgumentException for {@code n < 1}
     */
    public List<SnapshotSize> largestSnapshots(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be at least 1, was " + n);
        }
        Comparator<TakenSnapshot> smallestFirst = Comparator.comparingInt(TakenSnapshot::size)
                .thenComparing(t -> t.session().context.name(), Comparator.reverseOrder());
        PriorityQueue<TakenSnapshot> heap = new PriorityQueue<>(n + 1, smallestFirst);
        for (DurableSession session : byContext.values()) {
            TakenSnapshot taken = session.taken();
            if (taken == null || session.dropped || !session.owned()) {
                continue;
            }
            if (heap.size() < n) {
                heap.add(taken);
            } else if (smallestFirst.compare(taken, heap.peek()) > 0) {
                heap.poll();
                heap.add(taken);
            }
        }
        List<TakenSnapshot> largest = new ArrayList<>(heap);
        largest.sort(smallestFirst.reversed());
        long now = clock.nanoTime();
        List<SnapshotSize> sizes = new ArrayList<>(largest.size());
        for (TakenSnapshot taken : largest) {
            DurableSession session = taken.session();
            long sinceWrite = session.sinceWriteNanos(now);
            sizes.add(new SnapshotSize(session.handle, session.context.name(), taken.size(), beanSizes(taken),
                    Duration.ofNanos(Math.max(0, now - taken.atNanos())),
                    sinceWrite < 0 ? null : Duration.ofNanos(sinceWrite), session.pending(taken)));
        }
        return sizes;
    }

    private Map<String, Integer> beanSizes(TakenSnapshot taken) {
        try {
            return codec.beanSizes(taken.bytes());
        } catch (SnapshotRefusedException unreadable) {
            return Map.of(); // taken under another budget, or restored bytes this codec reads differently
        }
    }

    @Override
    public boolean tracks(String beanName) {
        return durableBeans.containsKey(beanName);
    }

    @Override
    public void opened(String key, RendererSyncContext context) {
        DurableSession session = new DurableSession(StateStore.checkHandle(key), context, this);
        byContext.put(context, session);
        // A previous context of the session here removes only itself when released; until it finished, the new
        // one waits before it acquires (one owner per session, also on one node).
        DurableSession previous = byHandle.put(key, session);
        if (previous != null && !previous.finished.isDone()) {
            session.follows(previous);
        }
    }

    @Override
    public void ended(String key, RendererSyncContext context) {
        DurableSession session = byContext.get(context);
        if (session != null) {
            session.ended = true;
        }
    }

    @Override
    public Object created(RendererSyncContext context, String beanName, Object bean) {
        DurableSession session = byContext.get(context);
        if (session == null) {
            throw outsideSession(context, beanName);
        }
        refuseDropped(session);
        return session.created(beanName, bean);
    }

    /**
     * A durable bean made for a context that is not a session's would be node-local: a silent loss at the next
     * deploy. Refused instead, naming the bean, the context and the fix.
     */
    private DurableOutsideSessionException outsideSession(RendererSyncContext context, String beanName) {
        String kind = "not a session's";
        for (String scope : new String[] { "websocket", "request", "keyed" }) {
            if (registry.belongsTo(context, scope)) {
                kind = "websocket".equals(scope) ? "a STOMP or WebSocket session's" : "a " + scope + " context";
                break;
            }
        }
        return new DurableOutsideSessionException("The @Durable bean '" + beanName + "' was called in context '"
                + context.name() + "' (" + kind + "), where it would be node-local: nothing of it would be stored,"
                + " restored or written through, so it was not kept. Durable beans live in their HTTP session's"
                + " (or WebSession's) context: call it from an @OnContext HTTP handler, or from a STOMP handler through"
                + " the session's context (a @HttpSessionContext RendererSyncContext parameter, then"
                + " user.invokeAsync(...)); or remove @Durable if the state may stay on its node.");
    }

    /** Whether {@code context} is a session's whose durable state this node holds (owned, or dropped after a refusal). */
    boolean holdsDurableState(RendererSyncContext context) {
        DurableSession session = byContext.get(context);
        return session != null && (session.owned() || session.dropped);
    }

    @Override
    public void touched(RendererSyncContext context, String beanName) {
        DurableSession session = byContext.get(context);
        if (session != null) {
            refuseDropped(session);
        }
        if (session != null && session.owned()) {
            NodeLease live = lease.liveLease();
            if (live == null) {
                throw unavailable(session.handle, "this node's lease in the state store ran out");
            }
            if (!session.acquiredUnder(live)) {
                session.reacquire(live); // the lease lapsed and was taken again: its ownerships ended with it
            }
            session.touched();
        }
    }

    /**
     * Write-through after an answer's body, on {@code context}: the session's snapshot, if it changed, is written
     * before this returns. A context without durable beans, or whose session was never owned here, costs a look-up.
     *
     * @throws SessionUnavailableException when the store refused or did not confirm the write
     */
    void writeThrough(RendererSyncContext context, String handler) {
        DurableSession session = byContext.get(context);
        if (session != null && (session.owned() || session.dropped)) {
            session.writeThrough(handler);
        }
    }

    /**
     * A callback queued on a context whose copy was dropped (the store refused its snapshot, or it was found stale)
     * runs after the drop, before the context's last callback: it must not read or change the dropped copy.
     */
    private void refuseDropped(DurableSession session) {
        if (session.dropped) {
            throw unavailable(session.handle, "its copy on this node was dropped (the state store holds a newer"
                    + " owner's state); the retry restores it");
        }
    }

    private void onMessage(HandOffMessage message) {
        if (message.kind() == HandOffMessage.Kind.RELEASED) {
            CompletableFuture<Void> wait = releaseWaits.remove(message.handle());
            if (wait != null) {
                wait.complete(null);
            }
            return;
        }
        DurableSession session = byHandle.get(message.handle());
        if (session == null || !session.owned()) {
            store.publish(message.fromNode(),
                    new HandOffMessage(HandOffMessage.Kind.RELEASED, message.handle(), lease.nodeId()));
            return;
        }
        LOG.info("Node '" + message.fromNode() + "' asked node '" + lease.nodeId() + "' for session '"
                + message.handle() + "': handing it over after its queued callbacks");
        session.handOffRequested(message.fromNode()); // answered RELEASED once the session is settled
        if (!session.finishClaimed()) {
            registry.release(session.context); // the last callback writes and releases
        }
    }

    // For DurableSession and its SnapshotWriter.

    void writeSoon(SnapshotWriter snapshots) {
        writer.execute(snapshots::flush);
    }

    void scheduleRetry(SnapshotWriter snapshots, Duration delay) {
        clock.schedule(() -> writer.execute(snapshots::flush), delay);
    }

    java.util.Set<String> durableBeanNames() {
        return durableBeans.keySet();
    }

    /**
     * The session's final write and release are done (or not needed): a successor context of it on this node may
     * acquire now, and a node that asked for it is answered RELEASED. Until then the session stays mapped by its
     * handle, so that a new context follows it.
     */
    void settled(DurableSession session) {
        byHandle.remove(session.handle, session);
        session.finished.complete(null);
        session.answerHandOff(); // after the completion: a request recorded later sees it and answers itself
    }

    void drop(DurableSession session) {
        registry.release(session.context);
    }

    CompletableFuture<Void> awaitRelease(String handle) {
        return releaseWaits.computeIfAbsent(handle, h -> new CompletableFuture<>());
    }

    /**
     * The session's acquire ended (acquired, refused or timed out): its wait for a RELEASED goes, answered or not. A
     * hand-off that ends by polling gets no RELEASED (the owner died, or the message was lost), so nothing else would
     * remove it. One context per session and node acquires at a time, so the wait is this one's.
     */
    void acquireEnded(String handle) {
        releaseWaits.remove(handle);
    }

    NodeLease requireLiveLease(String handle) {
        NodeLease live = lease.liveLease();
        if (live == null) {
            throw unavailable(handle, "this node's lease in the state store is not live");
        }
        return live;
    }

    SessionUnavailableException unavailable(String handle, String why) {
        Duration retryAfter = settings.handOffTimeout().compareTo(Duration.ofSeconds(1)) < 0
                ? Duration.ofSeconds(1) : settings.handOffTimeout();
        return new SessionUnavailableException("Session '" + handle + "' is not available on node '" + lease.nodeId()
                + "': " + why + "; retry after " + retryAfter.toSeconds() + " s", retryAfter);
    }

    StateStore store() {
        return store;
    }

    SnapshotCodec codec() {
        return codec;
    }

    JsonMapper mapper() {
        return mapper;
    }

    DurableSettings settings() {
        return settings;
    }

    ContextClock clock() {
        return clock;
    }
}
