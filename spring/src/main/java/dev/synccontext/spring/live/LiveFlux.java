package dev.synccontext.spring.live;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.live.LiveChannel;
import dev.synccontext.live.LiveSubscriber;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.FluxSink;

/**
 * Server-Sent Events for live channels, on Spring WebFlux (any server it runs on: Reactor Netty, or a Servlet
 * container through WebFlux's adapter). A handler method returns the stream:
 *
 * <pre>{@code
 * @GetMapping(path = "/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
 * Flux<ServerSentEvent<String>> events(ServerWebExchange exchange, RendererSyncContext context) {
 *     return live.subscribe(exchange, context, board::live);   // board: a @ContextScoped bean
 * }
 * }</pre>
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>No thread waits for a client that does not read: a write is one element for the response, written
 *       only while the response asks for more (see {@link FluxTransport}); the context only appends to the
 *       subscriber's bounded buffer, under the channel's overflow policy.</li>
 *   <li>Every event has an {@code id} ({@code epoch-sequence}); a browser's {@code EventSource} sends the last
 *       one back as {@code Last-Event-ID} when it reconnects, and the channel replays what it missed or
 *       sends a snapshot ({@link LiveChannel#subscribe}).</li>
 *   <li>The subscription runs inside {@code context} when the server subscribes to the stream; a refusal (the
 *       context closed, full, or shutting down) or a channel that cannot be reached fails the stream before its
 *       first event, so the server answers with an error status ({@code 503} when the application is shutting
 *       down, through the starter's {@code ShuttingDownWebExceptionHandler}) instead of an empty stream.</li>
 *   <li>The stream ends at {@code synccontext.live.sse-timeout} (the browser reconnects and resumes), when the
 *       client goes away, or with its subscriber: on shutdown with an {@code event:going-away} (no id), as
 *       {@link LiveSse} does. A stream whose response takes nothing more then (a client that does not read) is
 *       aborted instead, its connection closed on Reactor Netty, so the server's graceful shutdown does not wait
 *       for bytes that client never takes.</li>
 * </ul>
 * The response says {@code Cache-Control: no-cache, no-transform} and {@code X-Accel-Buffering: no} (nginx).
 * Several channels of different contexts share one stream with {@link #subscribe(ServerWebExchange, List)}.
 */
public final class LiveFlux {

    private final LiveEncoder encoder;
    private final Duration timeout;
    private final LaneLimit laneLimit;

    /** Streams of at most {@link LaneLimit#DEFAULT_MAX} lanes each. */
    public LiveFlux(LiveEncoder encoder, Duration timeout) {
        this(encoder, timeout, new LaneLimit(LaneLimit.DEFAULT_MAX));
    }

    /** Streams of at most {@code laneLimit}'s lanes each. */
    public LiveFlux(LiveEncoder encoder, Duration timeout, LaneLimit laneLimit) {
        this.encoder = Objects.requireNonNull(encoder, "encoder");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.laneLimit = Objects.requireNonNull(laneLimit, "laneLimit");
    }

    /**
     * The event stream of the channel {@code channel} gives (called inside {@code context}): a snapshot or what
     * the request's {@code Last-Event-ID} missed, then every message published after it.
     */
    public Flux<ServerSentEvent<String>> subscribe(ServerWebExchange exchange, RendererSyncContext context,
            Supplier<LiveChannel> channel) {
        return subscribe(exchange, context, channel, subscriber -> {
        });
    }

    /**
     * As {@link #subscribe(ServerWebExchange, RendererSyncContext, Supplier)}; {@code subscribed} is called
     * inside {@code context} right after the subscription (to keep the subscriber, for example to
     * {@link LiveSubscriber#send send} to this tab alone).
     */
    public Flux<ServerSentEvent<String>> subscribe(ServerWebExchange exchange, RendererSyncContext context,
            Supplier<LiveChannel> channel, Consumer<LiveSubscriber> subscribed) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(channel, "channel");
        Objects.requireNonNull(subscribed, "subscribed");
        String lastEventId = exchange.getRequest().getHeaders().getFirst("Last-Event-ID");
        HttpHeaders headers = exchange.getResponse().getHeaders();
        headers.set(HttpHeaders.CACHE_CONTROL, "no-cache, no-transform");
        headers.set("X-Accel-Buffering", "no");
        Disposable connection = FluxTransport.connectionOf(exchange);
        Flux<ServerSentEvent<String>> events = Flux.create(
                sink -> start(sink, connection, lastEventId, context, channel, subscribed),
                FluxSink.OverflowStrategy.BUFFER); // never used beyond the demand: the transport writes only then
        return events.take(timeout);
    }

    /**
     * One event stream that carries several channels, each a {@link LiveLane} of its own context, with the format,
     * resume, ordering and ending of {@link LiveSse#subscribe(jakarta.servlet.http.HttpServletRequest,
     * jakarta.servlet.http.HttpServletResponse, List)}. Every lane subscribes inside its own context when the server
     * subscribes to the stream; when every lane is refused the stream fails before its first event (an error
     * status, {@code 503} while the application shuts down), as the single-channel stream does. A request for more
     * lanes than the {@link LaneLimit} allows subscribes none: the stream fails with {@link TooManyLanesException}
     * before its first event ({@code 400 Bad Request} with the refusal's message, through
     * {@link TooManyLanesWebExceptionHandler}, which the starter registers).
     *
     * @throws IllegalArgumentException no lane, or two lanes with one name
     */
    public Flux<ServerSentEvent<String>> subscribe(ServerWebExchange exchange, List<LiveLane> lanes) {
        List<LiveLane> all = List.copyOf(lanes);
        TooManyLanesException tooMany = laneLimit.check(all.size());
        if (tooMany != null) {
            return Flux.error(tooMany);
        }
        List<String> names = all.stream().map(LiveLane::name).toList();
        LaneIds.checkNames(names);
        String lastEventId = exchange.getRequest().getHeaders().getFirst("Last-Event-ID");
        HttpHeaders headers = exchange.getResponse().getHeaders();
        headers.set(HttpHeaders.CACHE_CONTROL, "no-cache, no-transform");
        headers.set("X-Accel-Buffering", "no");
        Disposable connection = FluxTransport.connectionOf(exchange);
        Flux<ServerSentEvent<String>> events = Flux.create(sink -> {
            SharedStream stream = new SharedStream(encoder, names, lastEventId);
            FluxStreamOutput.connect(stream, sink, connection);
            stream.subscribe(all);
        }, FluxSink.OverflowStrategy.BUFFER); // never used beyond the demand: the stream writes only then
        return events.take(timeout);
    }

    private void start(FluxSink<ServerSentEvent<String>> sink, @Nullable Disposable connection,
            @Nullable String lastEventId, RendererSyncContext context, Supplier<LiveChannel> channel,
            Consumer<LiveSubscriber> subscribed) {
        FluxTransport transport = new FluxTransport(sink, connection, encoder, lastEventId);
        CompletableFuture<LiveSubscriber> subscription;
        try {
            subscription = context.invokeAsync(() -> {
                LiveSubscriber subscriber = channel.get().subscribe(transport);
                try {
                    subscribed.accept(subscriber);
                } catch (RuntimeException | Error failed) {
                    subscriber.cancel(); // the application could not keep it: no stream it does not know of
                    throw failed;
                }
                return subscriber;
            });
        } catch (RuntimeException refused) {
            sink.error(refused);
            return;
        }
        subscription.whenComplete((subscriber, failure) -> {
            if (failure != null) {
                Throwable cause = failure instanceof CompletionException wrapped && wrapped.getCause() != null
                        ? wrapped.getCause() : failure;
                sink.error(cause); // before any event: the server answers with the error's status
            }
        });
    }
}
