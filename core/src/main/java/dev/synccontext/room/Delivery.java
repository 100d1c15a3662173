package dev.synccontext.room;

/**
 * How a {@link Room} hands its events to a member: every one, or only the latest.
 */
public enum Delivery {

    /**
     * Every event, in publication order, with no gap: a bid history, a chat. A member whose context refuses an
     * event (closed meanwhile, or its {@code maxQueueDepth} reached) leaves the room at that event
     * ({@link Membership#isActive()} turns false, the refusal is counted and logged), so no member ever sees a
     * later event without the earlier ones. A live-channel member gets each event as a message without a key.
     */
    LOG,

    /**
     * The latest event only, coalesced: a price, a score, a board whose every event is the whole state. A
     * context member has at most one callback of the room queued at a time; events published while it waits
     * replace each other, and the callback hands over the latest, so a slow member converges on the current
     * state without its queue growing. A live-channel member gets each event with the room's key as its key,
     * which a {@link dev.synccontext.live.OverflowPolicy#COALESCE_BY_KEY} channel coalesces. Per room by default:
     * any event replaces any other. A room whose events are parts of its state (the price of each lot) sets
     * {@link Rooms.Builder#coalesceBy} so that only events of the same key replace each other.
     */
    CONVERGING
}
