package dev.synccontext.spring.live;

import dev.synccontext.live.LiveSubscriber;
import dev.synccontext.live.LiveTransport;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * What the two event-stream transports ({@link SseTransport} on Servlet, {@link FluxTransport} on WebFlux) share:
 * the client's {@code Last-Event-ID}, the subscriber that drains into the stream, and whether the stream has
 * ended. A stream can end before its subscription reaches the context (the client left at once): attaching to
 * an ended stream tells the subscriber it is gone, so no subscriber outlives its stream.
 */
abstract sealed class EventStreamTransport implements LiveTransport permits FluxTransport, SseTransport {

    private final @Nullable String lastEventId;
    private final AtomicBoolean ended = new AtomicBoolean();
    private volatile @Nullable LiveSubscriber subscriber;

    EventStreamTransport(@Nullable String lastEventId) {
        this.lastEventId = lastEventId;
    }

    @Override
    public final void attach(LiveSubscriber subscriber) {
        this.subscriber = subscriber;
        if (ended.get()) {
            subscriber.gone(null); // the client left before its subscription reached the context
        }
    }

    @Override
    public final @Nullable String lastEventId() {
        return lastEventId;
    }

    final boolean hasEnded() {
        return ended.get();
    }

    /** Marks the stream ended; true if it had ended already. */
    final boolean markEnded() {
        return ended.getAndSet(true);
    }

    /** The stream takes more again: wakes the parked drain. */
    final void signalWritable() {
        LiveSubscriber attached = subscriber;
        if (attached != null) {
            attached.writable();
        }
    }

    /** The stream ended on the client's or the server's side: the subscriber is gone. */
    final void ended(@Nullable Throwable cause) {
        ended.set(true);
        LiveSubscriber attached = subscriber;
        if (attached != null) {
            attached.gone(cause);
        }
    }
}
