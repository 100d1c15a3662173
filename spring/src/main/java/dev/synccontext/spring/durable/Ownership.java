package dev.synccontext.spring.durable;

/**
 * What {@link StateStore#acquire} answers: the caller owns the session now, another node does, or the caller's
 * own node lease is not live (so it can own nothing until it takes a new one).
 */
public sealed interface Ownership permits Ownership.Acquired, Ownership.OwnedElsewhere, Ownership.LeaseLost {

    /**
     * The caller owns the session under {@code token} until its node lease ends or it releases.
     *
     * @param token         the fencing token every write of this ownership carries; larger than every token the
     *                      store issued before for any session, unless the caller already owned the session under
     *                      its current lease (then the same token again, and {@code previousToken == token})
     * @param previousToken the token of the ownership this one follows, {@code 0} for a session the store had no
     *                      record of. A node that still holds the session's beans in memory under token {@code t}
     *                      (its lease lapsed and it took a new one) may keep them exactly when
     *                      {@code previousToken == t}: no other node owned the session in between. In every other
     *                      case it restores from {@link StateStore#read} before the first callback.
     */
    record Acquired(long token, long previousToken) implements Ownership {

        /** Whether the store had a record of the session (a snapshot to restore may exist). */
        public boolean followsAnOwner() {
            return previousToken != 0;
        }
    }

    /**
     * Another node owns the session under a live lease: ask it to hand the session over
     * ({@link StateStore#publish} a {@link HandOffMessage.Kind#REQUEST} to {@code ownerNode}), then acquire again.
     *
     * @param ownerNode  the owner's node id
     * @param ownerToken the owner's fencing token
     */
    record OwnedElsewhere(String ownerNode, long ownerToken) implements Ownership {
    }

    /**
     * The caller's node lease is not live in the store (expired, released, or replaced): the node owns nothing
     * under it any more. Take a new lease with {@link StateStore#acquireNodeLease} and acquire again.
     *
     * @param lease the lease that is no longer live
     */
    record LeaseLost(NodeLease lease) implements Ownership {
    }
}
