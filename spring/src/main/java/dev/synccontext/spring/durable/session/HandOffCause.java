package dev.synccontext.spring.durable.session;

/**
 * Why a session's ownership came to this node from another one, as this node can tell it when it acquires the
 * session. The store does not say whether the previous owner released the session or lost its lease, so the cause
 * is what this node saw: whether it had to ask, and whether the owner answered.
 */
public enum HandOffCause {

    /**
     * The session had an owner before and nobody held it when this node asked the store: the owner released it
     * (a graceful stop, its idle eviction) or its lease had already run out (a node killed longer than the lease
     * ttl ago: counted here, since nothing tells the two apart after the fact).
     */
    DEPLOY("deploy"),

    /**
     * A live owner held the session and this node had to wait for its lease to run out: the owner did not answer
     * the hand-off request (killed within the ttl, stalled, or cut off).
     */
    FAILURE("failure"),

    /**
     * A live owner held the session and handed it over on request: the session's requests reach two nodes (no
     * session affinity, or a balancer that moved it).
     */
    NO_AFFINITY("no-affinity");

    private final String tag;

    HandOffCause(String tag) {
        this.tag = tag;
    }

    /** The meter tag value. */
    public String tag() {
        return tag;
    }
}
