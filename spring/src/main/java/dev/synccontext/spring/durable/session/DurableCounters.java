package dev.synccontext.spring.durable.session;

import dev.synccontext.spring.durable.WriteOutcome;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.IntConsumer;

/**
 * What this node's durable state did since start, for meters, the actuator endpoint and tests. Every figure only
 * grows. Thread-safe: each is one atomic field. The size of each snapshot written also goes to the
 * {@linkplain #onSnapshotWritten listeners} (a distribution summary), on the thread that wrote it.
 */
public final class DurableCounters {

    final AtomicLong snapshotsWritten = new AtomicLong();
    final AtomicLong bytesWritten = new AtomicLong();
    final AtomicLong skippedClean = new AtomicLong();
    final AtomicLong rejected = new AtomicLong();
    final AtomicLong restoreHits = new AtomicLong();
    final AtomicLong restoreMisses = new AtomicLong();
    final AtomicLong handOffsRequested = new AtomicLong();
    final AtomicLong handOffsGiven = new AtomicLong();
    final AtomicLong handOffTimeouts = new AtomicLong();
    final AtomicLong restoresRefused = new AtomicLong();
    final AtomicLong snapshotsRefused = new AtomicLong();
    final AtomicLong writeRetries = new AtomicLong();
    final AtomicLong staleCopiesDropped = new AtomicLong();
    final AtomicLong refusedByCodec = new AtomicLong();
    final AtomicLong overBudget = new AtomicLong();
    final AtomicLong leaseWaits = new AtomicLong();
    final AtomicLong leaseWaitNanos = new AtomicLong();
    /** By {@link WriteOutcome#ordinal()}; the ACCEPTED slot stays 0. */
    private final AtomicLongArray rejectedBy = new AtomicLongArray(WriteOutcome.values().length);
    private final AtomicLongArray handOffsBy = new AtomicLongArray(HandOffCause.values().length);
    private final List<IntConsumer> sizeListeners = new CopyOnWriteArrayList<>();

    DurableCounters() {
    }

    /** Snapshots the store accepted. */
    public long snapshotsWritten() {
        return snapshotsWritten.get();
    }

    /** Bytes of the snapshots the store accepted. */
    public long bytesWritten() {
        return bytesWritten.get();
    }

    /** Checkpoints whose bytes equalled the last ones taken: nothing written. */
    public long skippedClean() {
        return skippedClean.get();
    }

    /** Writes the store refused (stale token, not owned, lease expired): the local copy was dropped. */
    public long rejected() {
        return rejected.get();
    }

    /**
     * Writes the store refused with {@code outcome}: {@link WriteOutcome#STALE}, {@link WriteOutcome#NOT_OWNED} or
     * {@link WriteOutcome#LEASE_EXPIRED}; 0 for {@link WriteOutcome#ACCEPTED}.
     */
    public long rejected(WriteOutcome outcome) {
        return rejectedBy.get(outcome.ordinal());
    }

    /**
     * Snapshots the codec refused: on writing (a bean it cannot write, or over the size budget: the last stored
     * state stands) or on restoring (corrupt, unknown type or version, over the budget: the session starts from
     * new beans).
     */
    public long refusedByCodec() {
        return refusedByCodec.get();
    }

    /** Snapshots not written because they were over the size budget (also counted in {@link #refusedByCodec()}). */
    public long overBudget() {
        return overBudget.get();
    }

    /** Sessions acquired here that had a snapshot to restore. */
    public long restoreHits() {
        return restoreHits.get();
    }

    /** Sessions acquired here with nothing stored (new sessions). */
    public long restoreMisses() {
        return restoreMisses.get();
    }

    /** Sessions whose ownership came to this node from another node, with {@code cause}. */
    public long handOffs(HandOffCause cause) {
        return handOffsBy.get(cause.ordinal());
    }

    /** Hand-offs this node asked another node for. */
    public long handOffsRequested() {
        return handOffsRequested.get();
    }

    /** Sessions this node handed over on another node's request. */
    public long handOffsGiven() {
        return handOffsGiven.get();
    }

    /** Requests answered 503 because the owner did not hand the session over in time. */
    public long handOffTimeouts() {
        return handOffTimeouts.get();
    }

    /**
     * Stored snapshots this node refused to restore (corrupt, oversized, an unknown type or version): nothing of
     * them was bound or run, and the session started from new beans.
     */
    public long restoresRefused() {
        return restoresRefused.get();
    }

    /** Snapshots this node could not take (over the size budget, or state the mapper cannot write): not written. */
    public long snapshotsRefused() {
        return snapshotsRefused.get();
    }

    /** Snapshot writes (or final releases) the store did not take, because it failed: each is retried later. */
    public long writeRetries() {
        return writeRetries.get();
    }

    /**
     * Sessions whose copy here was dropped unused because this node's lease lapsed after it took them (a stall past
     * the ttl): the callback that found it was answered 503, and the next request restores the stored state.
     */
    public long staleCopiesDropped() {
        return staleCopiesDropped.get();
    }

    /** Waits for another node's lease on a session (hand-off asked), whether they ended acquired or timed out. */
    public long leaseWaits() {
        return leaseWaits.get();
    }

    /** Total time of {@link #leaseWaits()}, in nanoseconds of the registry's clock. */
    public long leaseWaitNanos() {
        return leaseWaitNanos.get();
    }

    /**
     * Tells {@code listener} the size in bytes of every snapshot the store accepts from now on, on the thread that
     * wrote it (the writer, or a write-through answer's context): keep it as cheap as a meter's record.
     */
    public void onSnapshotWritten(IntConsumer listener) {
        sizeListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** The store accepted a snapshot of {@code bytes} bytes. */
    void written(int bytes) {
        snapshotsWritten.incrementAndGet();
        bytesWritten.addAndGet(bytes);
        for (IntConsumer listener : sizeListeners) {
            listener.accept(bytes);
        }
    }

    void rejectedBy(WriteOutcome outcome) {
        rejected.incrementAndGet();
        rejectedBy.incrementAndGet(outcome.ordinal());
    }

    void handOff(HandOffCause cause) {
        handOffsBy.incrementAndGet(cause.ordinal());
    }

    void leaseWaited(long nanos) {
        leaseWaits.incrementAndGet();
        leaseWaitNanos.addAndGet(Math.max(0, nanos));
    }
}
