package dev.synccontext.spring.durable;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Where the durable state of sessions' contexts lives across nodes, and who owns each session: at most one node
 * at a time, fenced. A session's context stays node-local; what this store adds is that its snapshot outlives
 * the node, and that a node which lost the session can no longer overwrite it.
 *
 * <h2>Guarantees (every implementation keeps all of them)</h2>
 * <ul>
 *   <li><b>One token sequence, only growing.</b> The store issues every {@link NodeLease#epoch() lease epoch} and
 *       every {@link Ownership.Acquired#token() fencing token} from one sequence: each is larger than every
 *       epoch and token it issued before, for any node and any session. So a lease granted again after expiry
 *       gets an epoch larger than any token the old lease ever carried, and a session's tokens grow with every
 *       change of owner, also after its record was released, expired or deleted. Even if the sequence itself is
 *       lost (an evicted counter), a session's next token is larger than its previous one while its record
 *       lives.</li>
 *   <li><b>Exclusive ownership.</b> {@link #acquire} grants a session to the caller only when nobody owns it under
 *       a live lease; the check and the grant are one atomic step in the store, so of two nodes that race for a
 *       session exactly one gets it and the other learns who has it.</li>
 *   <li><b>Leases are per node, not per session.</b> An ownership is live exactly while the node lease it was
 *       granted under is live. Keeping 10,000 sessions costs one {@link #renewNodeLease} per node per period;
 *       when the node lease ends, all its ownerships end at once, and other nodes may take them.</li>
 *   <li><b>Fenced writes.</b> {@link #write} stores a snapshot only if its token is the session's current one
 *       <em>and</em> the lease that token was granted under is live, checked and written in one atomic step
 *       in the store (not checked by the client and written after). A node paused past its lease (GC, SIGSTOP)
 *       that wakes up and writes is refused, whether or not another node has taken the session meanwhile.
 *       Safety rests on this comparison alone, never on clocks: clock skew, pauses and slow networks can cost
 *       a lease early, never let a stale write through.</li>
 *   <li><b>Expiry with the session.</b> A session's record (owner and snapshot) expires after its idle timeout
 *       since its last acquire or accepted write; a node lease after its ttl since its grant or last renewal,
 *       measured by the store's own clock. Renewing the node lease does not touch session records (that is what
 *       keeps it one call), so an owner keeps a session that is used but not written alive by acquiring it again
 *       (its own token back, the expiry restarted), at most once per a fraction of the idle timeout. Release keeps
 *       the snapshot (the next owner restores it); {@link #delete} at session end removes both at once.</li>
 *   <li><b>Bytes in, bytes out.</b> The store never interprets a snapshot: no deserialization of any kind happens
 *       in a store. Decoding is the {@link SnapshotCodec}'s job, on the reading node, with its refusals.</li>
 * </ul>
 *
 * <h2>Failures</h2>
 * A call that cannot reach the store, or gets no answer, throws an unchecked exception (the Redis store: Spring's
 * {@code DataAccessException}); its outcome is then <em>unknown</em>: the step may or may not have been applied.
 * Every operation is safe to repeat: a write with the same token stores the same snapshot again, an acquire by
 * the owner answers its token again, a release or delete of what is gone does nothing. A store must never answer
 * {@link WriteOutcome#ACCEPTED} for a snapshot it did not store, extend a lease it cannot confirm, issue a token
 * that is not larger than an earlier one, or apply half of a step. It may lose {@link HandOffMessage}s (delivery
 * is at most once) and may end a lease early (a store restart, eviction): both cost availability, never safety. A
 * node whose {@link #renewNodeLease} fails or throws counts its lease as running out at the time it
 * <em>sent</em> its last successful renewal plus the ttl (minus a margin for clock drift), and stops serving its
 * sessions' callbacks then: the store has stopped accepting its writes by that time anyway.
 *
 * <h2>Names</h2>
 * Session handles and node ids are 1 to 200 visible ASCII characters (no spaces or control characters), as a
 * session id is; see {@link #checkHandle}. Stores may use them in keys and messages verbatim.
 *
 * <p>Implementations are thread-safe.
 */
public interface StateStore {

    /** The longest session handle or node id, in characters. */
    int MAX_NAME_LENGTH = 200;

    /**
     * Grants a lease to node {@code nodeId} with a new epoch, unless a live lease for that id exists.
     *
     * @return the new lease, or empty when {@code nodeId} holds a live lease already (another process with the
     *     same id, or this process's previous lease not yet expired): node ids are unique per process start
     */
    Optional<NodeLease> acquireNodeLease(String nodeId, Duration ttl);

    /**
     * Extends {@code lease} by its ttl from now, in one round trip whatever the number of sessions it owns.
     *
     * @return whether the lease was live and is extended; {@code false} means it ended (expired, released or
     *     replaced) and every ownership under it with it: take a new lease and acquire the sessions again
     */
    boolean renewNodeLease(NodeLease lease);

    /**
     * Ends {@code lease} now (a node shutting down, after it has released its sessions): sessions still owned under
     * it become free at once instead of after the ttl. Does nothing if the lease is not live.
     */
    void releaseNodeLease(NodeLease lease);

    /**
     * Takes ownership of session {@code handle} for the node of {@code lease}, if nobody owns it under a live lease;
     * refreshes the session record's expiry to {@code idleTimeout} when it answers {@link Ownership.Acquired}.
     * An owner asking again gets its own token back.
     */
    Ownership acquire(String handle, NodeLease lease, Duration idleTimeout);

    /**
     * Stores {@code snapshot} as session {@code handle}'s state, replacing the previous one, if {@code token} is the
     * session's current token and its lease is live (see {@link WriteOutcome}); on acceptance the session record's
     * expiry is set to {@code idleTimeout}.
     */
    WriteOutcome write(String handle, long token, byte[] snapshot, Duration idleTimeout);

    /** The session's last accepted snapshot, if any; no ownership needed (the owner reads after it acquired). */
    Optional<StoredSnapshot> read(String handle);

    /**
     * Gives up ownership of {@code handle} (after the final snapshot): other nodes may acquire it at once. The
     * snapshot stays, with its expiry.
     *
     * @return whether {@code token} owned the session and released it; {@code false} (nothing changed) when it
     *     was not the session's current owner
     */
    boolean release(String handle, long token);

    /** Removes the session's ownership and snapshot at session end, whoever owns it. Does nothing if absent. */
    void delete(String handle);

    /**
     * Sends {@code message} to node {@code toNode}'s subscribers.
     *
     * @return whether some subscriber of {@code toNode} was there to receive it; {@code false} means nobody
     *     listens for that node (gone, or not subscribed), so the sender waits for its lease to expire instead
     */
    boolean publish(String toNode, HandOffMessage message);

    /**
     * Delivers every message sent to {@code nodeId} to {@code listener}, on a thread of the store's choosing (never
     * while the store holds a lock of its own), until the subscription is closed. The subscription is active when
     * this method returns: a message published after that reaches it (while the store is reachable). A listener
     * that throws loses that message only. A listener should only hand the message on (post to the session's
     * context), never block.
     */
    Subscription subscribe(String nodeId, Consumer<HandOffMessage> listener);

    /** An open {@link #subscribe subscription}; closing it stops deliveries (one in progress may still finish). */
    interface Subscription extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Checks a session handle against the rule every store relies on (1 to {@value #MAX_NAME_LENGTH} visible
     * ASCII characters, {@code '!'} to {@code '~'}).
     *
     * @return {@code handle}
     * @throws IllegalArgumentException naming the offending character and what to do
     */
    static String checkHandle(String handle) {
        return checkName(handle, "session handle");
    }

    /** As {@link #checkHandle}, for a node id. */
    static String checkNodeId(String nodeId) {
        return checkName(nodeId, "node id");
    }

    /**
     * Checks an expiry: positive and at least a millisecond (the resolution stores keep).
     *
     * @return {@code ttl}
     */
    static Duration checkTtl(Duration ttl, String what) {
        if (ttl.toMillis() < 1) {
            throw new IllegalArgumentException(
                    "The " + what + " must be at least 1 ms (stores expire records in milliseconds), was " + ttl);
        }
        return ttl;
    }

    private static String checkName(String name, String what) {
        if (name.isEmpty() || name.length() > MAX_NAME_LENGTH) {
            throw new IllegalArgumentException("A " + what + " has 1 to " + MAX_NAME_LENGTH
                    + " characters, this one has " + name.length() + "; map longer ids to a digest of them");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '!' || c > '~') {
                throw new IllegalArgumentException("The " + what + " '" + name + "' has character U+"
                        + String.format("%04X", (int) c) + " at index " + i + "; a " + what
                        + " is visible ASCII ('!' to '~', no spaces), as a session id is: encode other ids"
                        + " (Base64url, or a digest)");
            }
        }
        return name;
    }
}
