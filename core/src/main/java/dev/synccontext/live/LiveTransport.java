package dev.synccontext.live;

import org.jspecify.annotations.Nullable;

/**
 * One subscriber's connection, as a {@link LiveSubscriber} drives it: SSE, WebSocket and STOMP implement it
 * in the Spring module. A transport never blocks on the network: it starts a write and says whether it can
 * take the next one at once, or calls {@link LiveSubscriber#writable()} when it can.
 *
 * <p>The subscriber calls {@link #ready()}, {@link #write} and {@link #flush()} from one thread at a time (its drain),
 * and {@link #close} once, on the channel's executor. The drain runs on that executor too, except where this
 * transport {@link #writesWithoutBlocking() says it never blocks} and the channel writes inline: then the drain
 * that a publish to an idle subscriber starts runs on the publishing thread, often inside the context. A transport that learns that its
 * client went away calls {@link LiveSubscriber#gone(Throwable)}.
 */
public interface LiveTransport {

    /**
     * Whether a write may start now without blocking. {@code false} obliges the transport to call
     * {@link LiveSubscriber#writable()} once it may. The subscriber asks it before every {@link #write} and every
     * {@link #flush}: neither is called unless this has just answered {@code true}.
     */
    boolean ready();

    /**
     * Starts writing {@code message}, without blocking on the network.
     *
     * @return {@code true} if the next message may be written at once; {@code false} if the transport will
     *     call {@link LiveSubscriber#writable()} when its write has gone out
     * @throws Exception the connection is broken: the subscriber ends with {@link CloseReason#GONE}
     */
    boolean write(LiveMessage message) throws Exception;

    /**
     * Called when the subscriber's buffer has run empty and {@link #ready()} has just answered {@code true}: pushes
     * out what {@link #write} may have kept back (a response buffer). Same contract as {@code write}'s answer; default: nothing to flush.
     *
     * @throws Exception the connection is broken
     */
    default boolean flush() throws Exception {
        return true;
    }

    /**
     * Whether {@link #ready()}, {@link #write} and {@link #flush()} return without waiting: not for the client, not
     * for a lock that another thread may hold across network I/O, not for a permit. {@code true} lets a publish
     * to an idle subscriber, on a channel built with {@link LiveChannel.Builder#inlineWrites inlineWrites(true)}, write
     * its message on the publishing thread (at most one batch, see {@link LiveSubscriber}) instead of handing the
     * drain to the channel's executor, so the update does not wait behind the executor's queue. Answer {@code true} only for a transport whose calls were checked never to
     * block (the Servlet non-blocking and the WebFlux event streams); the answer must not change. Default
     * {@code false}: every write on the executor.
     */
    default boolean writesWithoutBlocking() {
        return false;
    }

    /** Ends the connection (telling the client why where the protocol allows); must not block. */
    void close(CloseReason reason);

    /** The id of the last message the client saw, sent with its reconnect; {@code null} on a first connect. */
    default @Nullable String lastEventId() {
        return null;
    }

    /** Attaches the subscriber that drives this transport, before anything is written; default: nothing. */
    default void attach(LiveSubscriber subscriber) {
    }
}
