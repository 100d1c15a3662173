package dev.synccontext.spring.live;

import org.jspecify.annotations.Nullable;

/**
 * The one response a {@link SharedStream} writes: a Servlet output stream or a WebFlux sink. Called only under the
 * shared stream's lock (so from one thread at a time), never blocking on the network.
 */
interface StreamOutput {

    /** Whether a write may start now; {@code false} obliges the output to call {@link SharedStream#writable()} later. */
    boolean ready();

    /** Writes one event ({@code id} null: none, so a browser's {@code Last-Event-ID} stays); only after {@link #ready()}. */
    void write(@Nullable String id, String event, String data) throws Exception;

    /** Pushes out what writes kept back; the answer is {@link #ready()}'s. Only after {@link #ready()}. */
    boolean flush() throws Exception;

    /** Ends the response: with a going-away event first if {@code goingAway} and it can be taken now. Once. */
    void end(boolean goingAway);

    /** Ends the response with {@code cause} before anything was written (an error status where it can). Once. */
    void fail(Throwable cause);
}
