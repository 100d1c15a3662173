package dev.synccontext.spring.live;

import org.jspecify.annotations.Nullable;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.publisher.FluxSink;

/**
 * A {@link SharedStream}'s response on WebFlux, as {@link FluxTransport} is for one channel: the sink of the
 * {@code Flux<ServerSentEvent<String>>}, written only while the response has demand; the next request wakes the
 * stream, and the sink's end (cancel, timeout, completion) ends it.
 */
final class FluxStreamOutput implements StreamOutput {

    private final FluxSink<ServerSentEvent<String>> sink;

    private FluxStreamOutput(FluxSink<ServerSentEvent<String>> sink) {
        this.sink = sink;
    }

    /** The output of {@code stream} on {@code sink}, with the sink's signals registered after the stream has it. */
    static void connect(SharedStream stream, FluxSink<ServerSentEvent<String>> sink) {
        stream.use(new FluxStreamOutput(sink));
        sink.onRequest(requested -> stream.writable());
        sink.onDispose(stream::ended);
    }

    @Override
    public boolean ready() {
        return sink.requestedFromDownstream() > 0;
    }

    @Override
    public void write(@Nullable String id, String event, String data) {
        ServerSentEvent.Builder<String> builder = ServerSentEvent.<String>builder().event(event).data(data);
        if (id != null) {
            builder.id(id);
        }
        sink.next(builder.build());
    }

    @Override
    public boolean flush() {
        return ready();
    }

    @Override
    public void end(boolean goingAway) {
        if (goingAway && sink.requestedFromDownstream() > 0) {
            sink.next(FluxTransport.GOING_AWAY); // only if the response takes it now
        }
        sink.complete();
    }

    @Override
    public void fail(Throwable cause) {
        sink.error(cause); // before any event: the server answers with the error's status
    }
}
