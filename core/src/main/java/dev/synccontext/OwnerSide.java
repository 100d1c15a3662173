package dev.synccontext;

import org.jspecify.annotations.Nullable;

/**
 * The fields of a context that its owner writes while it drains: its position in the queue, its
 * ownership token and its progress count. They are kept 64 bytes away from the fields every producer
 * writes ({@link CallbackQueue}'s tail hint and {@link SyncContext}'s state) by {@link OwnerSidePadding},
 * so that a drain working right behind a producer does not take the producer's cache line away once
 * per callback (PostConcurrent ran 1.6-1.9x faster that way; {@code bench/README.md}, "Owner and
 * producer fields on separate cache lines"). {@code FieldLayoutTest} checks the distance.
 *
 * <p>Which thread may touch each field, and how, is said where the fields are used:
 * {@link CallbackQueue} for the queue position, {@link SyncContext} and {@link Drain} for the token
 * and the progress.
 */
abstract class OwnerSide {

    /**
     * Consumer end: the chunk holding the next index to take ({@link CallbackQueue}); null while the queue
     * has no chunk. Written by the owner as it moves from chunk to chunk, and once by the producer that
     * creates a fresh queue's first chunk.
     */
    @Nullable QueueChunk headChunk;
    /** The thread running a callback of this context, or null; see {@link ContextState}, "Ownership token". */
    @Nullable Thread owner;
    /** Callbacks the running drain finished but has not yet subtracted from the count. */
    int progress;
    /** The next index the owner takes. Owner-only, handed on with ownership. */
    int headIndex;
    // The JVM puts a subclass's small fields into holes it finds in a superclass's layout: these fill
    // this class's last 4 bytes, so that no producer field lands here.
    int fill;
}
