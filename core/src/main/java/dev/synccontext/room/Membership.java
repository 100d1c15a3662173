package dev.synccontext.room;

/**
 * One member's place in a {@link Room}: from {@link Room#join} until {@link #leave()}, until the member's context
 * is released (the session ended), until it refuses an event, or until the room goes away.
 *
 * <p>Thread-safe. After it ended, no further event of the room reaches the member: one queued on the member's
 * context before is dropped there, unread.
 */
public interface Membership {

    /** The room's key ({@code auction:42}). */
    String roomKey();

    /** Whether the member still gets the room's events. */
    boolean isActive();

    /** Ends the membership; idempotent. */
    void leave();
}
