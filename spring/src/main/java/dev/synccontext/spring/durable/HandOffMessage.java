package dev.synccontext.spring.durable;

/**
 * A message between nodes about one session, sent with {@link StateStore#publish} to the node that should act on
 * it. Delivery is at most once (a node that is not subscribed, or is cut off, misses it), so a sender never waits
 * on a message alone: it also polls {@link StateStore#acquire} with a deadline.
 *
 * @param kind     what is asked or told
 * @param handle   the session handle
 * @param fromNode the sending node's id (where a {@link Kind#REQUEST}'s answer goes)
 */
public record HandOffMessage(Kind kind, String handle, String fromNode) {

    public HandOffMessage {
        StateStore.checkHandle(handle);
        StateStore.checkNodeId(fromNode);
    }

    /** What a hand-off message says. */
    public enum Kind {
        /**
         * Sent to a session's owner: "hand this session over". The owner finishes the callbacks already queued on
         * the session's context, writes its final snapshot, {@link StateStore#release releases}, and answers with
         * {@link #RELEASED}.
         */
        REQUEST,
        /** Sent back to the requester once the session is released: acquire it now and restore. */
        RELEASED
    }
}
