package dev.synccontext.spring.live;

import dev.synccontext.live.CloseReason;
import dev.synccontext.live.LiveMessage;
import dev.synccontext.live.LiveSubscriber;
import dev.synccontext.live.LiveTransport;
import org.jspecify.annotations.Nullable;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.Disposable;
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
final class FluxTransport extends EventStreamTransport {

    /** What {@link #close close(GOING_AWAY)} emits before it ends the stream: no id, so Last-Event-ID stays. */
    static final ServerSentEvent<String> GOING_AWAY = ServerSentEvent.<String>builder()
            .event(LiveFrames.GOING_AWAY_EVENT).data("{\"reconnect\":true}").build();

    private final FluxSink<ServerSentEvent<String>> sink;
    private final @Nullable Disposable connection;
    private final LiveEncoder encoder;

    FluxTransport(FluxSink<ServerSentEvent<String>> sink, @Nullable Disposable connection, LiveEncoder encoder,
            @Nullable String lastEventId) {
        super(lastEventId);
        this.sink = sink;
        this.connection = connection;
        this.encoder = encoder;
        sink.onRequest(requested -> signalWritable());
        sink.onDispose(() -> ended(null)); // the client went away (cancel), the stream timed out, or close() completed it
    }

    @Override
    public boolean ready() {
        return !hasEnded() && sink.requestedFromDownstream() > 0;
    }

    /**
     * {@code true}: {@code next} on the sink, called only while the response has demand, hands the event to the
     * server's operators, which at most queue it for the connection's event loop; nothing waits for the client.
     */
    @Override
    public boolean writesWithoutBlocking() {
        return true;
    }

    @Override
    public boolean write(LiveMessage message) throws Exception {
        if (hasEnded()) {
            throw new IllegalStateException("the event stream has ended");
        }
        sink.next(event(message, encoder.encode(message.data())));
        return ready();
    }

    @Override
    public void close(CloseReason reason) {
        if (!markEnded()) {
            if (reason == CloseReason.GOING_AWAY) {
                goAway(sink, connection);
            } else {
                sink.complete();
            }
        }
    }

    /**
     * Ends a stream on shutdown: with the going-away event when the response takes it now; else the response is
     * aborted (its connection closed), because completing it would queue the end behind bytes a client that does
     * not read never takes, and the server's graceful shutdown would wait for that request until its timeout.
     */
    static void goAway(FluxSink<ServerSentEvent<String>> sink, @Nullable Disposable connection) {
        if (sink.requestedFromDownstream() > 0) {
            sink.next(GOING_AWAY);
            sink.complete();
            return;
        }
        sink.error(new ClientNotReadingException());
        if (connection != null) {
            connection.dispose(); // an error too would end the response behind the bytes the client never takes
        }
    }

    /**
     * The exchange's connection where the server exposes it (Reactor Netty: the native response is the connection,
     * a {@link Disposable} that closes it at once); {@code null} elsewhere.
     */
    static @Nullable Disposable connectionOf(ServerWebExchange exchange) {
        try {
            Object nativeResponse = ServerHttpResponseDecorator.getNativeResponse(exchange.getResponse());
            return nativeResponse instanceof Disposable connection ? connection : null;
        } catch (IllegalArgumentException notExposed) {
            return null;
        }
    }

    /** Aborts a stream whose client did not read when the server went away (logged by the server at trace level). */
    static final class ClientNotReadingException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        ClientNotReadingException() {
            super("going away: the client did not read, so its stream is aborted instead of waited for", null,
                    false, false);
        }
    }

    static ServerSentEvent<String> event(LiveMessage message, String data) {
        return ServerSentEvent.<String>builder().id(message.id()).event(message.event()).data(data).build();
    }
}
