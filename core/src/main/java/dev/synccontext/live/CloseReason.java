package dev.synccontext.live;

/** Why a {@link LiveSubscriber} ended; given once to {@link LiveTransport#close(CloseReason)}. */
public enum CloseReason {

    /** Its buffer overflowed under {@link OverflowPolicy#DISCONNECT}: it should reconnect and resume. */
    TOO_SLOW,

    /** A write failed or the client went away (the transport said so). */
    GONE,

    /** The subscriber was cancelled by the application ({@link LiveSubscriber#cancel()}). */
    CANCELLED,

    /** Its channel was closed (the context's state went away, for example with its session). */
    CHANNEL_CLOSED
}
