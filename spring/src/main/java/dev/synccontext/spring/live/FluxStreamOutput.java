package dev.synccontext.spring.live;

import org.jspecify.annotations.Nullable;
import org.springframework.http.codec.ServerSentEvent;
import reactor.core.Disposable;
import reactor.core.publisher.FluxSink;

/**
 * A {@link SharedStream}'s response on WebFlux, as {@link FluxTransport} is for one channel: the sink of the
 * {@code Flux<ServerSentEvent<String>>}, written only while the response has demand; the next request wakes the
 * stream, and the sink's end (cancel, timeout, completion) ends it.
 */
final class FluxStreamOutput implements StreamOutput {

    private final FluxSink<ServerSentEvent<String>> sink;
    private final @Nullable Disposable connection;

    private FluxStreamOutput(FluxSink<ServerSentEvent<String>> sink, @Nullable Disposable connection) {
        this.sink = sink;
        this.connection = connection;
    }

    /**
     * The output of {@code stream} on {@code sink} (of the response on {@code connection}, where the server exposes
     * it: {@link FluxTransport#connectionOf}), with the sink's signals registered after the stream has it.
     */
    static void connect(SharedStream stream, FluxSink<ServerSentEvent<String>> sink, @Nullable Disposable connection) {
        stream.use(new FluxStreamOutput(sink, connection));
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
        if (goingAway) {
            FluxTransport.goAway(sink, connection); // a client that does not read is not waited for
        } else {
            sink.complete();
        }
    }

    @Override
    public void fail(Throwable cause) {
        sink.error(cause); // before any event: the server answers with the error's status
    }
}
