package dev.synccontext.spring.durable.session;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.durable.HandOffMessage;
import dev.synccontext.spring.durable.NodeLease;
import dev.synccontext.spring.durable.Ownership;
import dev.synccontext.spring.durable.SnapshotRefusedException;
import dev.synccontext.spring.durable.StoredSnapshot;
import dev.synccontext.spring.durable.WriteOutcome;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * One session's durable beans on this node, and its ownership in the store.
 *
 * <p>Where each step runs: {@link #ensureOwned} (acquire and restore), {@link #checkpoint} (the snapshot) and
 * {@link #finish} (the final snapshot) run on the session's context, so the beans are read between callbacks,
 * a consistent cut without a lock. {@link #flush} (the store write) runs off the context, on the writer, and is
 * serialized per session by {@link #writeLock}, newest bytes winning: a slow debounced write can never land after
 * the final one.
 */
final class DurableSession {

    private static final Log LOG = LogFactory.getLog(DurableSession.class);
    /** How many times a checkpoint steps back behind newly queued callbacks before it snapshots anyway. */
    private static final int MAX_DEFERS = 16;

    final String handle;
    final RendererSyncContext context;
    private final DurableContexts node;
    /** Bean name → this context's instance; written and read on the context. */
    private final Map<String, Object> beans = new LinkedHashMap<>();
    private final AtomicBoolean checkpointQueued = new AtomicBoolean();
    private final Object writeLock = new Object();
    private int defers;
    /** Whether this session's snapshot was reported over the budget already; on the context. */
    private boolean warnedOverBudget;
    /** The fencing token, 0 until acquired; read off the context by the writer. */
    private volatile long token;
    /** Decoded beans of the restored snapshot not yet created here. */
    private @Nullable Map<String, Object> restored;
    /** The bytes of the last snapshot taken (or restored): a checkpoint with equal bytes writes nothing. */
    private byte @Nullable [] lastTaken;
    /** Guarded by this: the newest bytes not yet written, and whether a debounced write is scheduled. */
    private byte @Nullable [] pending;
    private boolean writeScheduled;
    /** Set when the session ended (delete instead of a final write) or its copy was dropped (write nothing). */
    volatile boolean ended;
    volatile boolean dropped;
    /** The node that asked for this session, answered RELEASED after the final snapshot. */
    volatile @Nullable String handOffTo;

    DurableSession(String handle, RendererSyncContext context, DurableContexts node) {
        this.handle = handle;
        this.context = context;
        this.node = node;
    }

    boolean owned() {
        return token != 0;
    }

    /** A tracked bean was created on this context: own the session (restoring it), then give it its stored state. */
    Object created(String beanName, Object bean) {
        ensureOwned();
        Map<String, Object> from = restored;
        Object state = from == null ? null : from.remove(beanName);
        if (state != null) {
            node.mapper().updateValue(bean, state);
        }
        beans.put(beanName, bean);
        return bean;
    }

    /** Acquires the session before its first durable bean is used here; restores when someone wrote since. */
    private void ensureOwned() {
        if (token != 0) {
            return;
        }
        long started = node.clock().nanoTime();
        long deadline = started + node.settings().handOffTimeout().toNanos();
        boolean asked = false;
        CompletableFuture<Void> answered = null;
        while (true) {
            NodeLease lease = node.requireLiveLease(handle);
            Ownership ownership = node.store().acquire(handle, lease, node.settings().idleTimeout());
            if (ownership instanceof Ownership.Acquired acquired) {
                restore();
                token = acquired.token();
                counted(acquired, asked, answered, started);
                return;
            }
            if (ownership instanceof Ownership.LeaseLost) {
                throw node.unavailable(handle, "this node's lease in the state store ended; it is taking a new one");
            }
            Ownership.OwnedElsewhere elsewhere = (Ownership.OwnedElsewhere) ownership;
            CompletableFuture<Void> released = node.awaitRelease(handle);
            answered = released;
            if (!asked) {
                asked = true;
                node.counters().handOffsRequested.incrementAndGet();
                node.store().publish(elsewhere.ownerNode(),
                        new HandOffMessage(HandOffMessage.Kind.REQUEST, handle, node.nodeId()));
            }
            long left = deadline - node.clock().nanoTime();
            if (left <= 0) {
                node.counters().handOffTimeouts.incrementAndGet();
                node.counters().leaseWaited(node.clock().nanoTime() - started);
                LOG.warn("Session '" + handle + "' is owned by node '" + elsewhere.ownerNode() + "', which did not hand"
                        + " it over to node '" + node.nodeId() + "' within " + node.settings().handOffTimeout()
                        + "; answered 503 with Retry-After");
                throw node.unavailable(handle, "owned by node '" + elsewhere.ownerNode() + "', which did not hand it"
                        + " over within synccontext.durable.hand-off-timeout (" + node.settings().handOffTimeout() + ")");
            }
            // Woken by the owner's RELEASED, or polled: hand-off messages are at most once.
            awaitQuietly(released, Math.min(left, node.settings().handOffTimeout().toNanos() / 5 + 1));
        }
    }

    /** Counts how the session came here: asked and answered, asked and waited out, or taken from a released record. */
    private void counted(Ownership.Acquired acquired, boolean asked, @Nullable CompletableFuture<Void> answered,
            long started) {
        if (asked) {
            node.counters().leaseWaited(node.clock().nanoTime() - started);
            node.counters().handOff(answered != null && answered.isDone() ? HandOffCause.NO_AFFINITY
                    : HandOffCause.FAILURE);
        } else if (acquired.followsAnOwner() && acquired.previousToken() != acquired.token()) {
            node.counters().handOff(HandOffCause.DEPLOY);
        }
    }

    private void awaitQuietly(CompletableFuture<Void> released, long nanos) {
        try {
            node.clock().await(released, nanos);
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw node.unavailable(handle, "interrupted while waiting for a hand-off");
        }
    }

    private void restore() {
        Optional<StoredSnapshot> stored = node.store().read(handle);
        if (stored.isEmpty()) {
            node.counters().restoreMisses.incrementAndGet();
            return;
        }
        byte[] bytes = stored.get().bytes();
        try {
            restored = new LinkedHashMap<>(node.codec().decode(bytes));
            lastTaken = bytes;
            node.counters().restoreHits.incrementAndGet();
        } catch (SnapshotRefusedException refused) {
            node.counters().refusedByCodec.incrementAndGet();
            // Starting empty loses the stored state; refusing every request forever would lose the session.
            LOG.error("The stored snapshot of session '" + handle + "' was refused on node '" + node.nodeId()
                    + "' (" + refused.getMessage() + "); the session starts from new beans", refused);
        }
    }

    /** A call reached a durable bean: queue one checkpoint behind the callbacks queued now. */
    void touched() {
        if (checkpointQueued.compareAndSet(false, true)) {
            try {
                context.post(this::checkpoint);
            } catch (RejectedExecutionException closed) {
                checkpointQueued.set(false); // closing: the release hook's final snapshot covers it
            }
        }
    }

    /** On the context: steps back behind newly queued callbacks (a burst costs one snapshot), then takes it. */
    private void checkpoint() {
        if (context.queueDepth() > 0 && defers < MAX_DEFERS && !context.isClosed()) {
            defers++;
            try {
                context.post(this::checkpoint);
                return;
            } catch (RejectedExecutionException closed) {
                // closing: take it now
            }
        }
        defers = 0;
        checkpointQueued.set(false); // before the snapshot: a later callback's change queues the next one
        byte[] bytes = take();
        if (bytes != null) {
            offer(bytes);
        }
    }

    /** The snapshot if it differs from the last one taken; null when clean, dropped or refused. */
    private byte @Nullable [] take() {
        if (dropped || token == 0 || beans.isEmpty()) {
            return null;
        }
        byte[] bytes;
        try {
            bytes = node.codec().encode(beans);
        } catch (SnapshotRefusedException refused) {
            node.counters().refusedByCodec.incrementAndGet();
            if (refused.reason() == SnapshotRefusedException.Reason.OVERSIZED) {
                overBudget(refused);
                return null;
            }
            LOG.error("Session '" + handle + "''s durable beans on node '" + node.nodeId() + "' could not be"
                    + " snapshotted; the last stored state stands: " + refused.getMessage(), refused);
            return null;
        }
        if (Arrays.equals(bytes, lastTaken)) {
            node.counters().skippedClean.incrementAndGet();
            return null;
        }
        lastTaken = bytes;
        return bytes;
    }

    /** Counts a snapshot over the budget; warns once per session here (every checkpoint would repeat it). */
    private void overBudget(SnapshotRefusedException refused) {
        node.counters().overBudget.incrementAndGet();
        if (!warnedOverBudget) {
            warnedOverBudget = true;
            LOG.warn("Session '" + handle + "''s durable beans " + beans.keySet() + " on node '" + node.nodeId()
                    + "' are over the snapshot size budget; the last stored state stands until they shrink. Shrink"
                    + " the beans' state or raise synccontext.durable.size-budget: " + refused.getMessage());
        }
    }

    private void offer(byte[] bytes) {
        boolean schedule;
        synchronized (this) {
            pending = bytes;
            schedule = !writeScheduled;
            writeScheduled = true;
        }
        if (schedule) {
            node.scheduleWrite(this);
        }
    }

    /** Off the context: writes the newest pending snapshot, if any. */
    void flush() {
        synchronized (this) {
            writeScheduled = false;
        }
        synchronized (writeLock) {
            byte[] bytes;
            synchronized (this) {
                bytes = pending;
                pending = null;
            }
            if (bytes == null || dropped) {
                return;
            }
            WriteOutcome outcome = node.store().write(handle, token, bytes, node.settings().idleTimeout());
            if (outcome == WriteOutcome.ACCEPTED) {
                node.counters().snapshotsWritten.incrementAndGet();
                node.counters().bytesWritten.addAndGet(bytes.length);
            } else {
                refused(outcome);
            }
        }
    }

    private void refused(WriteOutcome outcome) {
        node.counters().rejectedBy(outcome);
        dropped = true;
        LOG.warn("The state store refused session '" + handle + "''s snapshot from node '" + node.nodeId()
                + "' (" + outcome + ", token " + token + "): another node owns the session now or this node's"
                + " lease ended. The copy here is dropped; the session's next request restores the stored state");
        node.drop(this);
    }

    /**
     * The context's last callback (release: session end, hand-off, idle eviction, shutdown): after every callback
     * accepted before it. Deletes at session end; otherwise writes the final snapshot and releases the session.
     */
    void finish() {
        if (token == 0 || dropped) {
            answerHandOff();
            return;
        }
        if (ended) {
            node.store().delete(handle);
            return;
        }
        byte[] bytes = take();
        if (bytes != null) {
            synchronized (this) {
                pending = bytes;
            }
        }
        flush();
        if (!dropped) {
            node.store().release(handle, token);
        }
        answerHandOff();
    }

    private void answerHandOff() {
        String to = handOffTo;
        if (to != null) {
            node.counters().handOffsGiven.incrementAndGet();
            node.store().publish(to, new HandOffMessage(HandOffMessage.Kind.RELEASED, handle, node.nodeId()));
        }
    }

    Duration debounce() {
        return node.settings().debounce();
    }
}
