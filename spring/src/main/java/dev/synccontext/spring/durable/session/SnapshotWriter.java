package dev.synccontext.spring.durable.session;

import dev.synccontext.spring.durable.WriteOutcome;
import java.time.Duration;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * One session's store-write path on this node: its snapshots written to the store under its token, and its release
 * once the final one is written.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Newest bytes win, one store call at a time.</b> Every write and the release hold {@link #writeLock}, so
 *       this session's store calls from here never overlap and never land out of order: a slow debounced write
 *       cannot land after the final one or after a write-through. Bytes offered while a write is queued or in
 *       flight replace the pending ones; a snapshot overtaken that way is never written.</li>
 *   <li><b>When, and on which thread.</b> A checkpoint's bytes ({@link #offer}) are written off the context, on the
 *       node's writer executor, at once (the debounce passed before the snapshot was taken); at most one such write
 *       is queued per session. A write-through ({@link #writeThrough}) and the final snapshot ({@link #finish}) are
 *       written on the context, in the callback that took them; the final one is retried on the writer if the store
 *       fails.</li>
 *   <li><b>Release writes last.</b> Once {@link #finish} ran, the next successful {@link #flush} writes every pending
 *       byte first and then releases the session in the store; then the session is settled (a successor context on
 *       this node may acquire). A dropped copy settles without writing or releasing.</li>
 *   <li><b>A failed store call is retried.</b> A write or release the store did not answer keeps its bytes pending
 *       (unless newer ones came), is counted, marks the store unhealthy, and is tried again on the writer after
 *       {@link StoreHealth#retryDelay} (logged at WARN on the 1st, 2nd, 4th, 8th... attempt), or sooner by a flush
 *       already queued; the session runs on meanwhile. At most one flush per session is queued or armed at a time,
 *       so an outage costs each session one store call per backoff step. A write-through that fails is not
 *       retried: its outcome is unknown, so the copy here is dropped.</li>
 *   <li><b>Fenced.</b> Every write carries the session's token; a refused one ({@link WriteOutcome} other than
 *       ACCEPTED) is counted and logged at WARN, and the copy here is dropped (its context released): nothing more
 *       is written from here, and the session's next request restores the stored state. One exception: a write
 *       refused under a token the session replaced during the call (its reacquire, after this node's lease lapsed
 *       and nobody owned the session meanwhile) is written again under the new token, as the fence allows.</li>
 *   <li><b>An ended session is deleted, not refused.</b> {@link #delete} holds {@link #writeLock}, so a write in
 *       flight lands before the record goes, and nothing pending is written after it.</li>
 * </ul>
 *
 * <p>State: {@link #pending} and {@link #writeScheduled} are guarded by this object, {@link #storeFailures} by
 * {@link #writeLock}; the rest is volatile, for the monitoring reads of any thread.
 */
final class SnapshotWriter {

    private static final Log LOG = LogFactory.getLog(SnapshotWriter.class);
    private static final long NEVER = Long.MIN_VALUE;

    private final DurableSession session;
    private final DurableContexts node;
    private final Object writeLock = new Object();
    /**
     * Guarded by this: the newest bytes not yet written, and whether a {@link #flush} is queued on the writer or
     * armed as a retry (at most one: a second would double the session's store calls while the store is down).
     */
    private byte @Nullable [] pending;
    private boolean writeScheduled;
    /** Store failures since the last successful flush; guarded by {@link #writeLock}. */
    private int storeFailures;
    /** Set by {@link #delete}: the session ended and its record is gone; guarded by {@link #writeLock}. */
    private boolean deleted;
    /** Set by {@link #finish}: the next successful flush also releases the session; then {@link #released}. */
    private volatile boolean finishing;
    private volatile boolean released;
    /** The bytes the store holds as far as this node knows (restored, or last accepted from here). */
    private volatile byte @Nullable [] storedBytes;
    /** When the store last accepted a snapshot from here, on the registry's clock; {@link #NEVER} before. */
    private volatile long lastWriteNanos = NEVER;

    SnapshotWriter(DurableSession session, DurableContexts node) {
        this.session = session;
        this.node = node;
    }

    /** The store holds {@code bytes}: read from it at the restore. */
    void restored(byte[] bytes) {
        storedBytes = bytes;
    }

    /** A checkpoint's new bytes, on the context: pending, written on the writer at once unless a write is queued. */
    void offer(byte[] bytes) {
        boolean schedule;
        synchronized (this) {
            pending = bytes;
            schedule = !writeScheduled;
            writeScheduled = true;
        }
        if (schedule) {
            node.writeSoon(this); // the debounce passed before the snapshot was taken
        }
    }

    /**
     * Off the context: writes the newest pending snapshot, if any, and, once the context finished, releases the
     * session. A store that fails keeps the bytes pending (unless newer ones came) and is tried again later.
     * The release comes only after the last pending bytes are written: a debounced write in flight when the context
     * finished writes the final bytes too before it releases, so the next owner never restores one change too few.
     */
    void flush() {
        synchronized (this) {
            writeScheduled = false;
        }
        writeAndSettle();
    }

    private void writeAndSettle() {
        try {
            write();
        } finally {
            if (finishing && (released || session.dropped)) {
                node.settled(session);
            }
        }
    }

    private void write() {
        synchronized (writeLock) {
            while (true) {
                byte[] bytes;
                synchronized (this) {
                    bytes = pending;
                    pending = null;
                }
                if (session.dropped || deleted) {
                    return;
                }
                if (bytes != null) {
                    long token = session.token();
                    WriteOutcome outcome;
                    try {
                        outcome = node.store().write(session.handle, token, bytes, node.settings().idleTimeout());
                    } catch (RuntimeException unreachable) {
                        retryLater(bytes, unreachable);
                        return;
                    }
                    node.storeHealth().succeeded();
                    if (outcome != WriteOutcome.ACCEPTED && reacquiredSince(token)) {
                        // The session reacquired during the call (its lease lapsed and was taken again, nobody owned
                        // it meanwhile): the refusal (STALE, or LEASE_EXPIRED if it reached the store first) is of
                        // the ownership it replaced. The bytes are this copy's: write them under the new token.
                        pendUnlessNewer(bytes);
                        continue;
                    }
                    if (outcome != WriteOutcome.ACCEPTED) {
                        refused(outcome);
                        return;
                    }
                    accepted(bytes);
                }
                if (finishing && !released) {
                    boolean finalBytesPending;
                    synchronized (this) {
                        finalBytesPending = pending != null; // finish() queued them during the write above
                    }
                    if (finalBytesPending) {
                        continue;
                    }
                    try {
                        node.store().release(session.handle, session.token());
                    } catch (RuntimeException unreachable) {
                        retryLater(null, unreachable);
                        return;
                    }
                    node.storeHealth().succeeded();
                    released = true;
                }
                storeFailures = 0;
                return;
            }
        }
    }

    /** Whether the session holds another token than {@code written} now, and its copy still counts. */
    private boolean reacquiredSince(long written) {
        return session.token() != written && !session.dropped;
    }

    /** {@code bytes} are pending again, unless newer ones came meanwhile. */
    private synchronized void pendUnlessNewer(byte[] bytes) {
        if (pending == null) {
            pending = bytes;
        }
    }

    /** The store took {@code bytes}: counted, and remembered for monitoring. */
    private void accepted(byte[] bytes) {
        node.counters().written(bytes.length);
        storedBytes = bytes;
        lastWriteNanos = node.clock().nanoTime();
    }

    /** The store failed: keep {@code bytes} unless newer ones are pending, and try again after a backoff. */
    private void retryLater(byte @Nullable [] bytes, RuntimeException unreachable) {
        node.storeHealth().failed(unreachable);
        node.counters().writeRetries.incrementAndGet();
        int attempt = ++storeFailures;
        boolean schedule;
        synchronized (this) {
            if (pending == null) {
                pending = bytes;
            }
            // A checkpoint during the failed call queued a flush already: that one retries (and arms the timer).
            schedule = !writeScheduled;
            writeScheduled = true; // offer() leaves the retry to the flush queued or armed
        }
        Duration delay = StoreHealth.retryDelay(attempt, node.settings().debounce());
        if (Integer.bitCount(attempt) == 1) { // 1st, 2nd, 4th, 8th...: a store that stays down logs rarely
            LOG.warn("The state store did not take session '" + session.handle + "''s snapshot from node '"
                    + node.nodeId() + "' (attempt " + attempt + ": " + unreachable + "); the session runs on and the"
                    + " newest snapshot is tried again in " + delay.toMillis() + " ms");
        }
        if (schedule) {
            node.scheduleRetry(this, delay);
        }
    }

    private void refused(WriteOutcome outcome) {
        node.counters().rejectedBy(outcome);
        session.dropped = true;
        LOG.warn("The state store refused session '" + session.handle + "''s snapshot from node '" + node.nodeId()
                + "' (" + outcome + ", token " + session.token() + "): another node owns the session now or this"
                + " node's lease ended. The copy here is dropped; the session's next request restores the stored"
                + " state");
        node.drop(session);
    }

    /**
     * Write-through, on the context: writes {@code bytes} now, holding the context for the store's round trip;
     * pending debounced bytes are older and are not written.
     *
     * @throws SessionUnavailableException when the store refused the write (the copy here is dropped, so the next
     *                                     request restores what the store holds) or the write failed
     */
    void writeThrough(byte[] bytes, String handler) {
        WriteOutcome outcome;
        synchronized (writeLock) {
            synchronized (this) {
                pending = null; // these bytes are newer than any debounced ones
            }
            try {
                outcome = node.store().write(session.handle, session.token(), bytes, node.settings().idleTimeout());
            } catch (RuntimeException storeFailed) {
                // Unknown outcome: drop the copy so that nothing unconfirmed is served from memory.
                session.unconfirmed();
                LOG.warn("The state store did not confirm session '" + session.handle + "''s snapshot from node '"
                        + node.nodeId() + "' (write-through, " + handler + "): " + storeFailed, storeFailed);
                throw node.unavailable(session.handle, "the state store did not confirm the snapshot of " + handler
                        + " (" + storeFailed.getMessage() + "); the answer was not given");
            }
            if (outcome == WriteOutcome.ACCEPTED) {
                accepted(bytes);
                return;
            }
        }
        refused(outcome);
        throw node.unavailable(session.handle, "the state store refused the snapshot of " + handler + " (" + outcome
                + "): another node owns the session now or this node's lease ended; the answer was not given");
    }

    /**
     * The final snapshot, on the context's last callback: {@code bytes} (null when clean) become pending, the next
     * successful flush releases the session, and this one writes now, on the context. A flush queued or armed before
     * stays so: its retry timer must not be doubled by this write's.
     */
    void finish(byte @Nullable [] bytes) {
        synchronized (this) {
            if (bytes != null) {
                pending = bytes;
            }
            finishing = true;
        }
        writeAndSettle();
    }

    /**
     * The session ended, on its last callback: removes its record from the store. Under {@link #writeLock}, so a
     * debounced write in flight lands first (and is deleted with the record) instead of being refused NOT_OWNED
     * after it, counted and logged as if another node had fenced this one; pending bytes, and a flush queued or
     * armed as a retry, write nothing after it. A store that fails leaves the record to its idle expiry.
     */
    void delete() {
        synchronized (writeLock) {
            deleted = true;
            synchronized (this) {
                pending = null;
            }
            try {
                node.store().delete(session.handle);
                node.storeHealth().succeeded();
            } catch (RuntimeException unreachable) {
                node.storeHealth().failed(unreachable);
                LOG.warn("Session '" + session.handle + "' ended but its record could not be deleted from the state"
                        + " store by node '" + node.nodeId() + "' (" + unreachable + "); it expires after the idle"
                        + " timeout");
            }
        }
    }

    /** Whether {@code bytes} are not yet in the store as far as this node knows. Any thread. */
    boolean pending(byte[] bytes) {
        return storedBytes != bytes; // the same array once written: taken bytes are never copied
    }

    /** Nanoseconds since the store last accepted a snapshot from here at {@code nowNanos}; negative: never. */
    long sinceWriteNanos(long nowNanos) {
        long at = lastWriteNanos;
        return at == NEVER ? -1 : Math.max(0, nowNanos - at);
    }
}
