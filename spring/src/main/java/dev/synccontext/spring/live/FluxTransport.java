package dev.synccontext.spring.live;

import dev.synccontext.live.CloseReason;
import dev.synccontext.live.LiveMessage;
import dev.synccontext.live.LiveSubscriber;
import dev.synccontext.live.LiveTransport;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.publisher.FluxSink;

/**
 * One WebFlux event stream as a {@link LiveTransport}: the sink of the {@code Flux<ServerSentEvent<String>>} a
 * handler returns. A write never waits for the client: {@link #ready()} is the demand the server's response
 * still has ({@link FluxSink#requestedFromDownstream()}), which the server stops renewing while its connection
 * cannot take more (Reactor Netty stops requesting while the channel is not writable); the next request wakes
 * the parked drain ({@link LiveSubscriber#writable()}). A client that stops reading therefore holds no thread,
 * only its subscriber's bounded buffer plus what the server's operators prefetched and the kernel took.
 *
 * <p>The sink is touched only by the subscriber's drain ({@link #write}) and by {@link #close}, which runs after
 * the drain has stopped for good; the server's request, cancel and completion signals only signal the
 * subscriber.
 */
final class FluxTransport implements LiveTransport {

    /** What {@link #close close(GOING_AWAY)} emits before it ends the stream: no id, so Last-Event-ID stays. */
    static final ServerSentEvent<String> GOING_AWAY = ServerSentEvent.<String>builder()
            .event(LiveFrames.GOING_AWAY_EVENT).data("{\"reconnect\":true}").build();

    private final FluxSink<ServerSentEvent<String>> sink;
    private final LiveEncoder encoder;
    private final @Nullable String lastEventId;
    private final AtomicBoolean ended = new AtomicBoolean();
    private volatile @Nullable LiveSubscriber subscriber;

    FluxTransport(FluxSink<ServerSentEvent<String>> sink, LiveEncoder encoder, @Nullable String lastEventId) {
        this.sink = sink;
        this.encoder = encoder;
        this.lastEventId = lastEventId;
        sink.onRequest(requested -> signalWritable());
        sink.onDispose(this::ended); // the client went away (cancel), the stream timed out, or close() completed it
    }

    @Override
    public void attach(LiveSubscriber subscriber) {
        this.subscriber = subscriber;
        if (ended.get()) {
            subscriber.gone(null); // the client left before its subscription reached the context
        }
    }

    @Override
    public @Nullable String lastEventId() {
        return lastEventId;
    }

    @Override
    public boolean ready() {
        return !ended.get() && sink.requestedFromDownstream() > 0;
    }

    @Override
    public boolean write(LiveMessage message) throws Exception {
        if (ended.get()) {
            throw new IllegalStateException("the event stream has ended");
        }
        sink.next(event(message, encoder.encode(message.data())));
        return ready();
    }

    @Override
    public void close(CloseReason reason) {
        if (!ended.getAndSet(true)) {
            if (reason == CloseReason.GOING_AWAY && sink.requestedFromDownstream() > 0) {
                sink.next(GOING_AWAY); // only if the response takes it now: a client that does not read just ends
            }
            sink.complete();
        }
    }

    private void signalWritable() {
        LiveSubscriber attached = subscriber;
        if (attached != null) {
            attached.writable();
        }
    }

    private void ended() {
        ended.set(true);
        LiveSubscriber attached = subscriber;
        if (attached != null) {
            attached.gone(null);
        }
    }

    static ServerSentEvent<String> event(LiveMessage message, String data) {
        return ServerSentEvent.<String>builder().id(message.id()).event(message.event()).data(data).build();
    }
}
