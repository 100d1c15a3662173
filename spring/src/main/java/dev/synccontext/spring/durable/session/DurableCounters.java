package dev.synccontext.spring.durable.session;

import java.util.concurrent.atomic.AtomicLong;

/** What this node's durable state did since start, for meters and tests. Thread-safe. */
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

    /** Sessions acquired here that had a snapshot to restore. */
    public long restoreHits() {
        return restoreHits.get();
    }

    /** Sessions acquired here with nothing stored (new sessions). */
    public long restoreMisses() {
        return restoreMisses.get();
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
}
