package dev.synccontext.spring.durable;

/**
 * What a fenced {@link StateStore#write} answers. Only {@link #ACCEPTED} means the snapshot is stored; every
 * other outcome means the store is unchanged and the writer is no longer (or never was) the session's owner
 * under that token, so it must stop writing with it.
 */
public enum WriteOutcome {

    /** Stored: the token was the session's current one and its node lease was live, checked and written in one step. */
    ACCEPTED,

    /**
     * Refused: another ownership was granted after the one this token names (a newer token exists), or the token
     * was never this session's. The newer owner's state stands; this node's copy of the session is obsolete.
     */
    STALE,

    /**
     * Refused: the session has no owner under this token: it was released, deleted at session end, or its record
     * expired after the idle timeout.
     */
    NOT_OWNED,

    /**
     * Refused: the token is still the session's latest, but the node lease it was issued under is no longer live
     * (it expired while the node was paused or cut off, or was released or replaced). Nobody else has taken the
     * session yet; acquire it again under a live lease (the answer's {@code previousToken} tells whether this
     * node's copy is still current) and write again.
     */
    LEASE_EXPIRED
}
