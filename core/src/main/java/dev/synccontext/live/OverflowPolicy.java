package dev.synccontext.live;

/**
 * What a subscriber's buffer does with a message that does not fit. Whatever it discards is counted
 * ({@link LiveSubscriber#dropped()}, {@link LiveStatistics#dropped(OverflowPolicy)}); the messages it keeps
 * are delivered in the order they were published.
 */
public enum OverflowPolicy {

    /** Discards the oldest buffered message to make room: the subscriber sees a gap in the sequence numbers. */
    DROP_OLDEST,

    /**
     * A message published with a key replaces the buffered, not yet written message with the same key (latest
     * value wins), and takes its place at the tail so that sequence numbers stay increasing. A message
     * without a key, or one whose key is not buffered, that finds the buffer full discards the oldest, as
     * {@link #DROP_OLDEST} does. The usual choice for a board or a dashboard.
     */
    COALESCE_BY_KEY,

    /**
     * Disconnects a subscriber whose buffer is full ({@link CloseReason#TOO_SLOW}): it reconnects and gets a
     * snapshot (or resumes from the replay buffer). Nothing is ever discarded silently.
     */
    DISCONNECT
}
