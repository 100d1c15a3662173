package dev.synccontext;

import org.jspecify.annotations.Nullable;

/**
 * The fields of a context that its owner writes while it drains: its position in the queue, its
 * ownership token and its progress count. They are kept 64 bytes away from the fields every producer
 * writes ({@link CallbackQueue}'s tail and {@link SyncContext}'s state) by {@link OwnerSidePadding},
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
     * Consumer end: the node the owner took last (kept as the queue's dummy, so taking a node needs no
     * atomic), or a first node a producer published into an empty queue; {@link #headTaken} tells which.
     */
    @Nullable QueuedCallback<?> head;
    /** The thread running a callback of this context, or null; see {@link SyncContext}, "Ownership token". */
    @Nullable Thread owner;
    /** Callbacks the running drain finished but has not yet subtracted from the count. */
    int progress;
    /** Whether {@link #head} was already taken. Owner-only, handed on with ownership. */
    boolean headTaken;

    // These fill this class's last 8 bytes. The JVM puts a subclass's small fields into holes it finds
    // in a superclass's layout, and the producers' tail did land here before they were added.
    byte fill1;
    byte fill2;
    byte fill3;
    int fill4;
}
