package dev.synccontext.spring.live;

import dev.synccontext.live.CloseReason;
import dev.synccontext.live.LiveMessage;
import dev.synccontext.live.LiveSubscriber;
import dev.synccontext.live.LiveTransport;
import org.jspecify.annotations.Nullable;

/**
 * One lane of a {@link SharedStream} as its channel's subscriber sees it: a transport whose writes go to the shared
 * response, under the lane's name, with the lane's part of the event id. Each event's data is the lane's message in
 * the WebSocket envelope ({@code {"id":"…","event":"…","snapshot":…,"data":…}}, see {@link LiveFrames}), encoded
 * on the lane's drain before the stream's lock is taken.
 */
final class LaneTransport implements LiveTransport {

    private final SharedStream stream;
    private final String name;
    private final @Nullable String lastEventId;
    private volatile @Nullable LiveSubscriber subscriber;
    /** The lane has left its stream (guarded by the stream's lock). */
    boolean left;

    LaneTransport(SharedStream stream, String name, @Nullable String lastEventId) {
        this.stream = stream;
        this.name = name;
        this.lastEventId = lastEventId;
    }

    String name() {
        return name;
    }

    @Override
    public void attach(LiveSubscriber subscriber) {
        this.subscriber = subscriber;
        if (stream.hasEnded()) {
            subscriber.gone(null); // the client left before this lane's subscription reached its context
        }
    }

    @Override
    public @Nullable String lastEventId() {
        return lastEventId;
    }

    @Override
    public boolean ready() {
        return stream.ready();
    }

    @Override
    public boolean write(LiveMessage message) throws Exception {
        String data = LiveFrames.json(message, stream.encoder().encode(message.data()));
        return stream.write(this, message.id(), data);
    }

    @Override
    public boolean flush() throws Exception {
        return stream.flush();
    }

    @Override
    public void close(CloseReason reason) {
        stream.closed(this, reason);
    }

    void signalWritable() {
        LiveSubscriber attached = subscriber;
        if (attached != null) {
            attached.writable();
        }
    }

    void signalGone() {
        LiveSubscriber attached = subscriber;
        if (attached != null) {
            attached.gone(null);
        }
    }
}
