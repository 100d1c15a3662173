package dev.synccontext;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jspecify.annotations.Nullable;

/**
 * One array of a context's queue ({@link CallbackQueue}): the slots for the indices
 * {@code start .. start + length - 1} of the sequence that the context's state word hands out, and the
 * link to the chunk after it. A context's first chunk has {@value #FIRST_LENGTH} slots, each next one
 * twice as many, up to {@value #MAX_LENGTH}: a short burst of queued work costs a small array, a long
 * one a few large ones (about 4 bytes per queued callback).
 *
 * <p>A slot is null until its producer writes its callback (a {@code Runnable} for a post, a
 * {@link QueuedCallback} for anything else), and {@link #TAKEN} once the context's owner or
 * {@code closeNow()} claimed it, which each does with one atomic exchange, so a slot is decided once.
 * Indices live on a ring of 2<sup>31</sup> ({@link #RING}): the sequence may wrap while work stays queued.
 */
final class QueueChunk {

    static final int FIRST_LENGTH = 16;
    static final int MAX_LENGTH = 1024;
    /** Indices are taken modulo 2<sup>31</sup>: the state word keeps 31 bits of sequence. */
    static final int RING = Integer.MAX_VALUE;
    /** What a claimed slot holds: never a callback, so a claim can tell it from one. */
    static final Object TAKEN = new Object() {
        @Override
        public String toString() {
            return "TAKEN";
        }
    };

    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);
    private static final VarHandle NEXT =
            FieldHandles.find(MethodHandles.lookup(), QueueChunk.class, "next", QueueChunk.class);

    /** The index of slot 0. */
    final int start;
    final Object[] slots;
    @SuppressWarnings("unused") // Accessed through NEXT.
    private @Nullable QueueChunk next;

    QueueChunk(int start, int length) {
        this.start = start;
        this.slots = new Object[length];
    }

    /** Where {@code index} falls relative to this chunk's first slot; at least {@code length} if after it. */
    int offset(int index) {
        return (index - start) & RING;
    }

    /** Whether {@code index} lies before this chunk (more than half the ring ahead means behind). */
    boolean isAfter(int index) {
        return offset(index) > (RING >>> 1);
    }

    boolean holds(int index) {
        return offset(index) < slots.length;
    }

    /** A producer's last step: publishes the callback in its slot. */
    void setRelease(int offset, Object callback) {
        SLOT.setRelease(slots, offset, callback);
    }

    @Nullable Object getAcquire(int offset) {
        return SLOT.getAcquire(slots, offset);
    }

    /**
     * Claims a written slot: the callback, or {@link #TAKEN} if someone claimed it first. Waits (briefly)
     * for a producer that reserved the index but has not written it yet.
     */
    Object claim(int offset) {
        for (int spins = 0; SLOT.getAcquire(slots, offset) == null; spins++) {
            CallbackQueue.backOff(spins);
        }
        return SLOT.getAndSet(slots, offset, TAKEN);
    }

    /** {@link #claim} of a slot already seen written. */
    Object claimWritten(int offset) {
        return SLOT.getAndSet(slots, offset, TAKEN);
    }

    @Nullable QueueChunk nextAcquire() {
        return (QueueChunk) NEXT.getAcquire(this);
    }

    /** The chunk after this one, once a producer of one of its indices has linked it (soon: it reserved one). */
    QueueChunk awaitNext() {
        QueueChunk n;
        for (int spins = 0; (n = (QueueChunk) NEXT.getAcquire(this)) == null; spins++) {
            CallbackQueue.backOff(spins);
        }
        return n;
    }

    /** The chunk after this one, linked by this producer if no one did yet (one CAS; the loser uses the winner's). */
    QueueChunk nextOrAppend() {
        QueueChunk n = (QueueChunk) NEXT.getAcquire(this);
        if (n != null) {
            return n;
        }
        QueueChunk created = new QueueChunk((start + slots.length) & RING, Math.min(slots.length * 2, MAX_LENGTH));
        QueueChunk witness = (QueueChunk) NEXT.compareAndExchange(this, null, created);
        return witness == null ? created : witness;
    }
}
