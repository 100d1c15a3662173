package dev.synccontext;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The queue half of a context: a multi-producer, single-consumer queue of linked arrays
 * ({@link QueueChunk}), indexed by a sequence that the context's state word hands out with each
 * reservation. It is the superclass of {@link SyncContext} rather than an object of its own, so that a
 * context and its (empty) queue are one small object: an idle context holds no chunk at all. The
 * consumer end ({@link OwnerSide#headChunk}, {@link OwnerSide#headIndex}) lives a cache line away from
 * the producer end ({@link #tailChunk}), see {@link OwnerSide}.
 *
 * <h2>Rules of use</h2>
 * <ul>
 *   <li>A producer's reservation (one CAS on the state word, {@link SyncContext}) gives it its index and
 *       tells it whether the queue had a chunk. {@link #enqueue} then writes the callback into that
 *       index's slot: no atomic at all when the chunk is there, one CAS to link a new chunk at the end of
 *       one, none to create a fresh queue's first chunk (only the producer whose reservation found no
 *       chunk creates it). Writing the slot is a producer's last step on the queue: any hint it moves,
 *       any chunk it links, comes before, so that once the owner has taken every reserved index no
 *       producer touches the queue any more.</li>
 *   <li>{@link #takeNext}, {@link #takeIfWritten}, {@link #peekWritten}, {@link #forgetChunks} and {@link #restoreChunks}
 *       belong to the context's owner alone, and the owner only takes an index whose reservation it
 *       counted: so taking waits (briefly) for a producer that reserved but has not written yet, rather
 *       than find nothing. Each take is one atomic exchange on the slot, the claim that
 *       {@code closeNow()} also makes ({@link #visitQueued}), so a callback is decided once.</li>
 *   <li>When the count says everything was taken, the owner drops the chunks before the CAS that gives
 *       the context up (that CAS also clears {@code CHUNKED} and restarts the sequence at 0), so an idle
 *       context retains no array. If the CAS fails (a producer reserved meanwhile), the owner puts the
 *       chunks back; that producer waits the few instructions between.</li>
 * </ul>
 * Ownership passes between threads only through the context's state word (a CAS), which orders the
 * owner-only fields here for the next owner.
 */
abstract class CallbackQueue extends OwnerSidePadding {

    private static final int SPINS_BEFORE_YIELD = 64;

    private static final VarHandle HEAD_CHUNK =
            FieldHandles.find(MethodHandles.lookup(), OwnerSide.class, "headChunk", QueueChunk.class);
    private static final VarHandle TAIL_CHUNK =
            FieldHandles.find(MethodHandles.lookup(), CallbackQueue.class, "tailChunk", QueueChunk.class);

    /**
     * Producers' hint: the last chunk some producer linked (never after the chunk of any index still to
     * be written), or null while the queue has no chunk. Moved forward by a CAS, never past a slot write.
     */
    @SuppressWarnings("unused") // Accessed through TAIL_CHUNK.
    private @Nullable QueueChunk tailChunk;

    // ---------------------------------------------------------------- producers

    /**
     * Writes {@code callback} into the slot of {@code index}, which this producer reserved.
     *
     * @param install whether the reservation found the queue without a chunk: then this producer
     *     creates the first one (its index is the sequence's first), and every other producer waits for it
     */
    final void enqueue(int index, boolean install, Object callback) {
        QueueChunk chunk;
        if (install) {
            chunk = new QueueChunk(index, QueueChunk.FIRST_LENGTH);
            TAIL_CHUNK.setRelease(this, chunk);
            HEAD_CHUNK.setRelease(this, chunk);
        } else {
            chunk = chunkOf(index);
        }
        chunk.setRelease(chunk.offset(index), callback);
    }

    /** The chunk that holds {@code index}: from the hint (or the head, if the hint is past it), linking new ones. */
    private QueueChunk chunkOf(int index) {
        QueueChunk hint = awaitTail();
        QueueChunk chunk = hint;
        if (chunk.isAfter(index)) {
            chunk = awaitHead(); // a later producer moved the hint on; the owner is not past us
        }
        while (!chunk.holds(index)) {
            chunk = chunk.nextOrAppend();
        }
        if (chunk != hint && chunk.isAfter(hint.start)) {
            TAIL_CHUNK.compareAndSet(this, hint, chunk); // lost: someone moved it (forward) meanwhile
        }
        return chunk;
    }

    /**
     * The producers' hint, which may be null for a moment: the producer creating the first chunk has not
     * published it yet, or the owner dropped the chunks and is about to put them back (its CAS failed
     * because this producer reserved). The read stays a plain acquire on the constant handle (a handle
     * passed as an argument is not one the JIT can fold: measured, a generic call per post).
     */
    private QueueChunk awaitTail() {
        QueueChunk chunk = (QueueChunk) TAIL_CHUNK.getAcquire(this);
        for (int spins = 0; chunk == null; spins++) {
            backOff(spins);
            chunk = (QueueChunk) TAIL_CHUNK.getAcquire(this);
        }
        return chunk;
    }

    /** The head chunk, which may be null for a moment as {@link #awaitTail} says. */
    private QueueChunk awaitHead() {
        QueueChunk chunk = (QueueChunk) HEAD_CHUNK.getAcquire(this);
        for (int spins = 0; chunk == null; spins++) {
            backOff(spins);
            chunk = (QueueChunk) HEAD_CHUNK.getAcquire(this);
        }
        return chunk;
    }

    // ---------------------------------------------------------------- the owner

    /**
     * Claims the next index: the callback written there, or {@link QueueChunk#TAKEN} if {@code closeNow()}
     * claimed it first. Only called for an index whose reservation the owner has counted. Publishes the
     * head chunk when it moves to the next one (for {@code closeNow()}'s walk, and for a producer that
     * is behind the hint).
     */
    final Object takeNext() {
        QueueChunk chunk = headChunk;
        if (chunk == null) {
            chunk = awaitHead();
        }
        int index = headIndex;
        int offset = chunk.offset(index);
        if (offset == chunk.slots.length) {
            chunk = chunk.awaitNext();
            HEAD_CHUNK.setRelease(this, chunk);
            offset = 0;
        }
        headIndex = (index + 1) & QueueChunk.RING;
        return chunk.claim(offset);
    }

    /**
     * Claims the next index if its slot is written already: then it was reserved before it was written,
     * so the owner's count holds it and it may be taken without a look at the state word. Null if not
     * written yet (or the next chunk not linked yet); otherwise as {@link #takeNext}.
     */
    final @Nullable Object takeIfWritten() {
        QueueChunk chunk = headChunk;
        if (chunk == null) {
            return null;
        }
        int index = headIndex;
        int offset = chunk.offset(index);
        if (offset == chunk.slots.length) {
            QueueChunk next = chunk.nextAcquire();
            if (next == null || next.getAcquire(0) == null) {
                return null;
            }
            HEAD_CHUNK.setRelease(this, next);
            chunk = next;
            offset = 0;
        } else if (chunk.getAcquire(offset) == null) {
            return null;
        }
        headIndex = (index + 1) & QueueChunk.RING;
        return chunk.claimWritten(offset);
    }

    /**
     * A look at the owner's next index without claiming it: what is written there (a callback, or
     * {@link QueueChunk#TAKEN} if {@code closeNow()} claimed it), or null if nothing is written yet or the
     * next chunk is not linked yet. For {@link SyncContext#giveHeadCallToWaiter}, which may only hand the context on
     * to the call it sees there and must leave anything else in the queue, and for
     * {@link SyncContext#takeScheduledFor}, which reads it while nobody owns the context (a drain scheduled,
     * not started) and believes it only if the state did not move meanwhile; a drain that started in between
     * may be moving the head, so a pair of head fields that do not match gives null rather than a slot.
     */
    final @Nullable Object peekWritten() {
        QueueChunk chunk = headChunk;
        if (chunk == null) {
            return null;
        }
        int offset = chunk.offset(headIndex);
        if (offset > chunk.slots.length) {
            return null; // read off the owner's thread while a drain moves on: that drain's CAS tells the reader
        }
        if (offset == chunk.slots.length) {
            chunk = chunk.nextAcquire();
            if (chunk == null) {
                return null;
            }
            offset = 0;
        }
        return chunk.getAcquire(offset);
    }

    /**
     * The count says every reserved index was taken: drops the chunks, so an idle context retains no
     * array, before the CAS that gives the context up and restarts the sequence. Returns what to hand to
     * {@link #restoreChunks}, with the {@link OwnerSide#headIndex} read before, if that CAS fails. The
     * next owner starts at index 0.
     */
    final @Nullable QueueChunk forgetChunks() {
        QueueChunk head = headChunk;
        if (head != null) {
            TAIL_CHUNK.setRelease(this, null);
            HEAD_CHUNK.setRelease(this, null);
            headIndex = 0;
        }
        return head;
    }

    /**
     * The give-up CAS failed after {@link #forgetChunks}: a producer reserved meanwhile and waits for a
     * chunk. The head becomes the hint again (behind the one dropped, maybe: a hint only has to be no
     * later than any index still to be written, and every chunk from the head on is still linked).
     */
    final void restoreChunks(@Nullable QueueChunk head, int index) {
        if (head != null) {
            headIndex = index;
            HEAD_CHUNK.setRelease(this, head);
            TAIL_CHUNK.setRelease(this, head);
        }
    }

    // ---------------------------------------------------------------- closeNow

    /**
     * {@code closeNow()}'s walk, by a thread that need not own the context: claims every index from the
     * owner's head chunk up to {@code end} (exclusive), the sequence as closeNow() found it when it marked
     * the context force-closed (after that, no reservation succeeds), and calls {@code visitor} with each
     * callback it claimed. The owner may still be taking indices meanwhile: each slot is claimed once, by
     * one of the two. Indices before the owner's position are already claimed, so starting from the head
     * chunk's first one, or from a chunk the owner has left meanwhile, is harmless.
     */
    final void visitQueued(int end, Consumer<Object> visitor) {
        QueueChunk chunk = awaitHead();
        for (int index = chunk.start; index != end; index = (index + 1) & QueueChunk.RING) {
            int offset = chunk.offset(index);
            if (offset == chunk.slots.length) {
                chunk = chunk.awaitNext();
                offset = 0;
            }
            if (chunk.getAcquire(offset) == QueueChunk.TAKEN) {
                continue;
            }
            Object callback = chunk.claim(offset);
            if (callback != QueueChunk.TAKEN) {
                visitor.accept(callback);
            }
        }
    }

    static void backOff(int spins) {
        if (spins < SPINS_BEFORE_YIELD) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }
}
