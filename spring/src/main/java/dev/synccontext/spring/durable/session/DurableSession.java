package dev.synccontext.spring.durable.session;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.durable.HandOffMessage;
import dev.synccontext.spring.durable.NodeLease;
import dev.synccontext.spring.durable.Ownership;
import dev.synccontext.spring.durable.SnapshotRefusedException;
import dev.synccontext.spring.durable.StoredSnapshot;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * One session's durable beans on this node, and its ownership in the store.
 *
 * <p>Where each step runs: {@link #ensureOwned} (acquire and restore), {@link #checkpoint} (the snapshot) and
 * {@link #finish} (the final snapshot) run on the session's context, so the beans are read between callbacks,
 * a consistent cut without a lock. The bytes they take go to the session's {@link SnapshotWriter}, which writes them
 * to the store (off the context, serialized per session, newest bytes winning) and releases the session last.
 */
final class DurableSession {

    private static final Log LOG = LogFactory.getLog(DurableSession.class);
    /** How many times a checkpoint steps back behind newly queued callbacks before it snapshots anyway. */
    private static final int MAX_DEFERS = 16;

    final String handle;
    final RendererSyncContext context;
    private final DurableContexts node;
    private final SnapshotWriter writer;
    /** Bean name → this context's instance; written and read on the context. */
    private final Map<String, Object> beans = new LinkedHashMap<>();
    private final AtomicBoolean checkpointQueued = new AtomicBoolean();
    /** Set once the final snapshot's callback was asked for (shutdown drain or release): only one path queues it. */
    private final AtomicBoolean finishClaimed = new AtomicBoolean();
    private int defers;
    /** Whether this session's snapshot was reported over the budget already; on the context. */
    private boolean warnedOverBudget;
    /** The fencing token, 0 until acquired; read off the context by the {@link #writer}. */
    private volatile long token;
    /** The epoch of the node lease the token was acquired under. */
    private volatile long epoch;
    /** Decoded beans of the restored snapshot not yet created here. */
    private @Nullable Map<String, Object> restored;
    /** The bytes of the last snapshot taken (or restored): a checkpoint with equal bytes writes nothing. */
    private byte @Nullable [] lastTaken;
    /** The last snapshot taken or restored, for {@link DurableContexts#largestSnapshots}; null before the first. */
    private volatile @Nullable TakenSnapshot taken;
    /** Set when the session ended (delete instead of a final write) or its copy was dropped (write nothing). */
    volatile boolean ended;
    volatile boolean dropped;
    /**
     * The node that asked for this session and is not yet answered: answered RELEASED once the session is settled
     * (see {@link #handOffRequested}); taken by whoever answers, so it is answered once.
     */
    private final AtomicReference<@Nullable String> handOffTo = new AtomicReference<>();
    /**
     * Completed once this session's last callback ran and its final snapshot was written and the session released
     * in the store (retried if the store failed), or neither was needed: a successor on this node waits for it.
     */
    final CompletableFuture<Void> finished = new CompletableFuture<>();
    /**
     * The session's previous context on this node, still running its queued callbacks and final snapshot when this
     * one opened; read once, on this context, before the first acquire.
     */
    private volatile @Nullable DurableSession predecessor;

    DurableSession(String handle, RendererSyncContext context, DurableContexts node) {
        this.handle = handle;
        this.context = context;
        this.node = node;
        this.writer = new SnapshotWriter(this, node);
    }

    /** Called when this context opened while {@code previous}, of the same session on this node, had not finished. */
    void follows(DurableSession previous) {
        predecessor = previous;
    }

    boolean owned() {
        return token != 0;
    }

    /** The fencing token every write and the release carry; 0 until acquired. Any thread. */
    long token() {
        return token;
    }

    /** Claims the final snapshot's callback for the caller; false if the drain or a release claimed it first. */
    boolean claimFinish() {
        return finishClaimed.compareAndSet(false, true);
    }

    /** Whether the final snapshot's callback was claimed (it is queued, running or done). */
    boolean finishClaimed() {
        return finishClaimed.get();
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
        awaitPredecessor(deadline);
        try {
            acquire(started, deadline);
        } finally {
            node.acquireEnded(handle);
        }
    }

    /** Acquires the session, asking its owner to hand it over and waiting up to {@code deadline} if it has one. */
    private void acquire(long started, long deadline) {
        long askedToken = -1;
        CompletableFuture<Void> answered = null;
        while (true) {
            NodeLease lease = node.requireLiveLease(handle);
            Ownership ownership;
            try {
                ownership = node.store().acquire(handle, lease, node.settings().idleTimeout());
                if (ownership instanceof Ownership.Acquired acquired) {
                    restore(acquired.token());
                }
                node.storeHealth().succeeded();
            } catch (SessionUnavailableException newerSnapshot) {
                throw newerSnapshot;
            } catch (RuntimeException unreachable) {
                // Acquiring again is safe: the owner's acquire answers its own token.
                node.storeHealth().failed(unreachable);
                throw node.unavailable(handle, "the state store did not answer (" + unreachable + ")");
            }
            if (ownership instanceof Ownership.Acquired acquired) {
                token = acquired.token();
                epoch = lease.epoch();
                counted(acquired, askedToken != -1, answered, started);
                return;
            }
            if (ownership instanceof Ownership.LeaseLost) {
                throw node.unavailable(handle, "this node's lease in the state store ended; it is taking a new one");
            }
            Ownership.OwnedElsewhere elsewhere = (Ownership.OwnedElsewhere) ownership;
            CompletableFuture<Void> released = node.awaitRelease(handle);
            answered = released;
            if (askedToken != elsewhere.ownerToken()) {
                // Asked again when the owner changed: the one asked before released, then took the session back.
                askedToken = elsewhere.ownerToken();
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

    /**
     * Waits for the session's previous context on this node to finish (its queued callbacks, final snapshot and
     * release). Without this wait the new context would take the ownership the old one still holds (same node,
     * same lease: the store answers its token again), run callbacks beside the old one's, restore a snapshot older
     * than the old one's final write, and lose the ownership when the old one releases it.
     */
    private void awaitPredecessor(long deadline) {
        DurableSession previous = predecessor;
        if (previous == null) {
            return;
        }
        predecessor = null;
        long left = deadline - node.clock().nanoTime();
        try {
            if (left <= 0 || !node.clock().await(previous.finished, left)) {
                node.counters().handOffTimeouts.incrementAndGet();
                throw node.unavailable(handle, "its previous context on this node did not finish within"
                        + " synccontext.durable.hand-off-timeout (" + node.settings().handOffTimeout() + ")");
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
            throw node.unavailable(handle, "interrupted while waiting for its previous context to finish");
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

    /**
     * Reads the stored snapshot into {@link #restored}. A refused one starts the beans new, except one written by
     * a newer deployment: that one this node must neither bind nor overwrite.
     *
     * @throws SessionUnavailableException for a snapshot of a newer version (the acquisition is released)
     */
    private void restore(long acquiredToken) {
        Optional<StoredSnapshot> stored = node.store().read(handle);
        if (stored.isEmpty()) {
            node.counters().restoreMisses.incrementAndGet();
            return;
        }
        byte[] bytes = stored.get().bytes();
        try {
            restored = new LinkedHashMap<>(node.codec().decode(bytes));
            lastTaken = bytes;
            writer.restored(bytes);
            taken = new TakenSnapshot(this, bytes, node.clock().nanoTime());
            node.counters().restoreHits.incrementAndGet();
        } catch (SnapshotRefusedException refused) {
            node.counters().refusedByCodec.incrementAndGet();
            if (refused.reason() == SnapshotRefusedException.Reason.NEWER_VERSION) {
                refuseNewer(acquiredToken, refused);
            }
            // Starting empty loses the stored state; refusing every request forever would lose the session.
            node.counters().restoresRefused.incrementAndGet();
            LOG.error("The stored snapshot of session '" + handle + "' was refused on node '" + node.nodeId()
                    + "' (" + refused.reason() + ": " + refused.getMessage() + "); nothing of it was bound or run,"
                    + " and the session's durable beans " + node.durableBeanNames() + " start new", refused);
        }
    }

    /**
     * A rolling deploy is under way and this node is of the older version: starting the session new would overwrite
     * the newer snapshot at its first checkpoint. Gives the ownership back (so a newer node can take the session at
     * once), keeps the stored bytes, and answers 503; the session's beans are never created here.
     */
    private void refuseNewer(long acquiredToken, SnapshotRefusedException refused) {
        node.counters().restoresRefused.incrementAndGet();
        try {
            node.store().release(handle, acquiredToken);
        } catch (RuntimeException unreachable) {
            // The ownership ends with this node's lease at the latest; nothing was or will be written under it.
            node.storeHealth().failed(unreachable);
        }
        LOG.warn("Session '" + handle + "' was written by a newer deployment than node '" + node.nodeId() + "' ("
                + refused.getMessage() + "). Node '" + node.nodeId() + "' answers 503 with Retry-After and writes"
                + " nothing, so the newer snapshot stays; route the session to the newer nodes until the older ones"
                + " are gone");
        throw node.unavailable(handle, "its stored snapshot was written by a newer deployment (" + refused.getMessage()
                + "); this node writes nothing for it");
    }

    /** Whether the session was acquired under {@code live} (else this node's lease lapsed and was taken again). */
    boolean acquiredUnder(NodeLease live) {
        return epoch == live.epoch();
    }

    /**
     * This node's lease lapsed and was taken again since the session was acquired: every ownership under the old
     * lease ended, so the copy here may serve only if nobody owned the session in between. Acquires it under
     * {@code live}; keeps the copy when the store answers this copy's token as the previous one, else drops it (the
     * context is released; the retry restores what the store holds) and refuses the call.
     */
    void reacquire(NodeLease live) {
        Ownership ownership;
        try {
            ownership = node.store().acquire(handle, live, node.settings().idleTimeout());
            node.storeHealth().succeeded();
        } catch (RuntimeException unreachable) {
            node.storeHealth().failed(unreachable);
            throw node.unavailable(handle, "the state store did not answer (" + unreachable + ")");
        }
        if (ownership instanceof Ownership.Acquired acquired && acquired.previousToken() == token) {
            token = acquired.token();
            epoch = live.epoch();
            return;
        }
        // The callback has not reached the bean yet: refusing it here is what keeps a stale copy unseen.
        node.counters().staleCopiesDropped.incrementAndGet();
        LOG.warn("Node '" + node.nodeId() + "' lost its lease since it took session '" + handle + "' (a stall past"
                + " the lease ttl) and the session was owned elsewhere meanwhile: its copy is dropped unused, and the"
                + " session's next request restores the stored state");
        dropped = true;
        node.drop(this);
        throw node.unavailable(handle, "this node's lease in the state store lapsed and the session was owned"
                + " elsewhere meanwhile (" + ownership + "); the copy here is dropped and the retry restores it");
    }

    /**
     * A call reached a durable bean: one checkpoint is queued {@code debounce} after the first such call since the
     * last checkpoint. Not at once: a checkpoint queued now would sit behind the running callback, so the context
     * would not be idle when it returns, and the next request would queue behind the checkpoint instead of running
     * inline (on the test kit: wait for the test to run the queue).
     */
    void touched() {
        if (checkpointQueued.compareAndSet(false, true)) {
            Duration debounce = node.settings().debounce();
            if (debounce.isZero()) {
                queueCheckpoint();
            } else {
                node.clock().schedule(this::queueCheckpoint, debounce);
            }
        }
    }

    private void queueCheckpoint() {
        try {
            context.post(this::checkpoint);
        } catch (RejectedExecutionException closed) {
            checkpointQueued.set(false); // closing: the last callback's final snapshot covers it
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
            writer.offer(bytes);
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
            node.counters().snapshotsRefused.incrementAndGet();
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
        taken = new TakenSnapshot(this, bytes, node.clock().nanoTime());
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

    /**
     * Write-through, on the context after an answer's body: takes the snapshot and writes it now, holding the
     * context for the store's round trip, so the answer is given only once its changes are stored. Clean: nothing.
     *
     * @throws SessionUnavailableException when the store refused the write (the copy here is dropped, so the next
     *                                     request restores what the store holds) or the write failed
     */
    void writeThrough(String handler) {
        byte[] bytes = take();
        if (bytes == null) {
            if (dropped) {
                throw node.unavailable(handle, "its copy on this node was dropped after the store refused a snapshot;"
                        + " the answer of " + handler + " was not given");
            }
            return;
        }
        writer.writeThrough(bytes, handler);
    }

    /** The write-through of the last bytes taken has an unknown outcome, on the context: the copy is dropped. */
    void unconfirmed() {
        lastTaken = null;
        dropped = true;
        node.drop(this);
    }

    /**
     * The context's last callback (release: session end, hand-off, idle eviction, shutdown): after every callback
     * accepted before it. Deletes at session end; otherwise writes the final snapshot and releases the session (later,
     * on the writer, if the store fails now).
     */
    void finish() {
        if (token == 0 || dropped) {
            node.settled(this);
            return;
        }
        if (ended) {
            writer.delete();
            node.settled(this);
            return;
        }
        writer.finish(take()); // settles the session once the final write and the release are done
    }

    /**
     * Node {@code asker} asked for this session. It is answered RELEASED when the session is settled (its final
     * write and release done, or not needed), so it acquires at once instead of at its next poll; here when that
     * happened already. Any thread.
     */
    void handOffRequested(String asker) {
        handOffTo.set(asker);
        // The race: the session was settled just before the set above, after its answer found nobody to tell.
        if (finished.isDone()) {
            answerHandOff();
        }
    }

    /**
     * Once {@link #finished} is complete: tells the node that asked for the session, if one did and nobody told it
     * yet, that it was released. Never throws: it runs where the session settles, in finally blocks. Unanswered,
     * the asker polls (the messages are at most once).
     */
    void answerHandOff() {
        String to = handOffTo.getAndSet(null);
        if (to != null) {
            node.counters().handOffsGiven.incrementAndGet();
            try {
                node.store().publish(to, new HandOffMessage(HandOffMessage.Kind.RELEASED, handle, node.nodeId()));
            } catch (RuntimeException unreachable) {
                node.storeHealth().failed(unreachable);
                LOG.warn("Node '" + node.nodeId() + "' could not tell node '" + to + "' that session '" + handle
                        + "' is released (" + unreachable + "); node '" + to + "' finds out by polling the store");
            }
        }
    }

    /** The last snapshot taken or restored here; null before the first. Any thread. */
    @Nullable TakenSnapshot taken() {
        return taken;
    }

    /** Whether {@code snapshot} is not yet in the store as far as this node knows. Any thread. */
    boolean pending(TakenSnapshot snapshot) {
        return writer.pending(snapshot.bytes());
    }

    /** Nanoseconds since the store last accepted a snapshot from here at {@code nowNanos}; negative: never. */
    long sinceWriteNanos(long nowNanos) {
        return writer.sinceWriteNanos(nowNanos);
    }
}
