package dev.synccontext.live;

/** Why a {@link LiveSubscriber} ended; given once to {@link LiveTransport#close(CloseReason)}. */
public enum CloseReason {

    /**
     * Its buffer overflowed under {@link OverflowPolicy#DISCONNECT}, or its connection's own bound gave up on it
     * ({@link LiveSubscriber#tooSlow()}): it should reconnect and resume.
     */
    TOO_SLOW,

    /** A write failed or the client went away (the transport said so). */
    GONE,

    /** The subscriber was cancelled by the application ({@link LiveSubscriber#cancel()}). */
    CANCELLED,

    /** Its channel was closed (the context's state went away, for example with its session). */
    CHANNEL_CLOSED,

    /**
     * The server is shutting down ({@link LiveSubscriber#goAway()}): the client should reconnect, to
     * another node, and resume there (it gets a snapshot). SSE: a {@code going-away} event, then the end of
     * the stream; WebSocket: close 1001; STOMP: an ERROR frame, then the session is closed.
     */
    GOING_AWAY
}
