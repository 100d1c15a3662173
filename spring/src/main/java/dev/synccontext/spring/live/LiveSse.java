package dev.synccontext.spring.live;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.live.CloseReason;
import dev.synccontext.live.LiveChannel;
import dev.synccontext.live.LiveSubscriber;
import dev.synccontext.live.LiveTransport;
import dev.synccontext.registry.ShuttingDownException;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Server-Sent Events for live channels, on Spring MVC (any Servlet 6 container). A handler method that
 * takes the request and response and returns {@code void} hands the response over:
 *
 * <pre>{@code
 * @GetMapping(path = "/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
 * void events(HttpServletRequest request, HttpServletResponse response) {
 *     sse.subscribe(request, response, context, board::live);   // board: a @ContextScoped bean
 * }
 * }</pre>
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>The response is written with Servlet non-blocking I/O: no thread waits for a client that does not
 *       read (see {@link SseTransport}); the context only appends to the subscriber's bounded buffer.</li>
 *   <li>Every event has an {@code id} ({@code epoch-sequence}); a browser's {@code EventSource} sends the last
 *       one back as {@code Last-Event-ID} when it reconnects, and the channel replays what it missed or
 *       sends a snapshot ({@link LiveChannel#subscribe}).</li>
 *   <li>The stream ends at {@code synccontext.live.sse-timeout} (the {@code AsyncContext} timeout; the
 *       browser reconnects and resumes), when the client goes away, or with its subscriber.</li>
 * </ul>
 * Several channels of different contexts share one stream with {@link #subscribe(HttpServletRequest,
 * HttpServletResponse, List)} (a session's private channel and the rooms it joined: one connection per tab).
 * Used on an HTTP/1.1 or HTTP/2 connection alike; a client behind a buffering proxy needs the proxy's
 * buffering off for this path (the response says {@code X-Accel-Buffering: no} for nginx).
 */
public final class LiveSse {

    private final LiveEncoder encoder;
    private final Duration timeout;
    private final LaneLimit laneLimit;

    /** Streams of at most {@link LaneLimit#DEFAULT_MAX} lanes each. */
    public LiveSse(LiveEncoder encoder, Duration timeout) {
        this(encoder, timeout, new LaneLimit(LaneLimit.DEFAULT_MAX));
    }

    /** Streams of at most {@code laneLimit}'s lanes each. */
    public LiveSse(LiveEncoder encoder, Duration timeout, LaneLimit laneLimit) {
        this.encoder = Objects.requireNonNull(encoder, "encoder");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.laneLimit = Objects.requireNonNull(laneLimit, "laneLimit");
    }

    /**
     * Starts the event stream on the request's thread (asynchronous mode, headers, the write listener) and
     * returns its transport, to be given to {@link LiveChannel#subscribe} inside the channel's context.
     *
     * @throws UncheckedIOException the response's output stream could not be opened
     */
    public LiveTransport open(HttpServletRequest request, HttpServletResponse response) {
        AsyncContext async = start(request, response);
        ServletOutputStream out = outputOf(async, response);
        SseTransport transport = new SseTransport(async, out, encoder, request.getHeader("Last-Event-ID"));
        async.addListener(transport);
        out.setWriteListener(transport);
        return transport;
    }

    private AsyncContext start(HttpServletRequest request, HttpServletResponse response) {
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType("text/event-stream");
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.setHeader("Cache-Control", "no-cache, no-transform");
        response.setHeader("X-Accel-Buffering", "no");
        AsyncContext async = request.isAsyncStarted() ? request.getAsyncContext() : request.startAsync(request, response);
        async.setTimeout(timeout.toMillis());
        return async;
    }

    private static ServletOutputStream outputOf(AsyncContext async, HttpServletResponse response) {
        try {
            return response.getOutputStream();
        } catch (IOException broken) {
            async.complete();
            throw new UncheckedIOException(broken);
        }
    }

    /**
     * Opens the stream ({@link #open}) and subscribes it to the channel {@code channel} gives, inside
     * {@code context} (inline when the context is idle, after its queued work otherwise). When the context
     * refuses the callback (closed, full) or the channel cannot be reached, the stream is ended and the
     * returned future says why. When the application is shutting down and there is no context to be had (the
     * injected proxy's session context was closed by the drain and the registry creates none:
     * {@link ShuttingDownException}), no stream starts: the request is answered {@code 503 Service Unavailable},
     * which a load balancer can pass on to another node (nginx: {@code proxy_next_upstream http_503}), and the
     * returned future fails with that exception.
     */
    public CompletableFuture<LiveSubscriber> subscribe(HttpServletRequest request, HttpServletResponse response,
            RendererSyncContext context, Supplier<LiveChannel> channel) {
        try {
            context.isClosed(); // resolves a proxy now, before the response is started: a closed one is handled below
        } catch (ShuttingDownException shuttingDown) {
            // A reconnect reaching a draining node: a started stream could only end at once (an EventSource would
            // come back here), and the exception thrown after startAsync would answer 500.
            response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
            return CompletableFuture.failedFuture(shuttingDown);
        }
        LiveTransport transport = open(request, response);
        CompletableFuture<LiveSubscriber> subscribed = context.invokeAsync(() -> channel.get().subscribe(transport));
        subscribed.whenComplete((subscriber, failure) -> {
            if (failure != null) {
                transport.close(CloseReason.CHANNEL_CLOSED);
            }
        });
        return subscribed;
    }

    /**
     * One event stream that carries several channels, each a {@link LiveLane} of its own context: every lane
     * subscribes inside its context and keeps its own buffer, policy, replay and sequence. Each event's SSE
     * {@code event} field is its lane's name, its data the message's envelope
     * ({@code {"id":"…","event":"…","snapshot":…,"data":…}}), its id every lane's position
     * ({@code me=<epoch>-12;room:42=<epoch>-40}); a reconnect's {@code Last-Event-ID} resumes each lane from its own
     * part, and a lane with no valid part (a malformed id, one of a single-channel stream, a lane not there before)
     * gets a snapshot. Each lane's events keep its channel's order; no order is promised between lanes. A lane whose
     * channel closes (or whose subscriber is cancelled, or whose context refuses the subscription) gets one event
     * {@code {"closed":"…"}} (whose id no longer names it) and leaves; the stream goes on with the others and ends
     * with the last one.
     * On shutdown the stream gets one {@code going-away} event and ends. When the application is shutting down and
     * a lane's context cannot be had, the request is answered {@code 503}, as by the single-channel
     * {@link #subscribe(HttpServletRequest, HttpServletResponse, RendererSyncContext, Supplier)}. A request for more
     * lanes than the {@link LaneLimit} allows starts no stream: it is answered {@code 400 Bad Request} with the
     * refusal's message (the cap, and the property that sets it) as plain text, and the returned future fails with
     * {@link TooManyLanesException}.
     *
     * @return completes once every lane's subscription ran: the subscribers of the lanes that subscribed, by name
     * @throws IllegalArgumentException no lane, or two lanes with one name
     */
    public CompletableFuture<Map<String, LiveSubscriber>> subscribe(HttpServletRequest request,
            HttpServletResponse response, List<LiveLane> lanes) {
        List<LiveLane> all = List.copyOf(lanes);
        TooManyLanesException tooMany = laneLimit.check(all.size());
        if (tooMany != null) {
            refuse(response, tooMany);
            return CompletableFuture.failedFuture(tooMany);
        }
        SharedStream stream = new SharedStream(encoder, all.stream().map(LiveLane::name).toList(),
                request.getHeader("Last-Event-ID"));
        for (LiveLane lane : all) {
            try {
                lane.context().isClosed(); // resolves a proxy now, before the response is started
            } catch (ShuttingDownException shuttingDown) {
                response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
                return CompletableFuture.failedFuture(shuttingDown);
            }
        }
        AsyncContext async = start(request, response);
        ServletOutputStream out = outputOf(async, response);
        ServletStreamOutput output = new ServletStreamOutput(stream, async, out);
        stream.use(output);
        async.addListener(output);
        out.setWriteListener(output);
        return stream.subscribe(all);
    }

    /** The client asked for the lanes (a list from its request): told why, with a status it cannot retry as is. */
    private static void refuse(HttpServletResponse response, TooManyLanesException tooMany) {
        response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
        response.setContentType("text/plain");
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        try {
            response.getOutputStream().write(String.valueOf(tooMany.getMessage()).getBytes(StandardCharsets.UTF_8));
        } catch (IOException | IllegalStateException gone) {
            // The client left, or the response was taken by a writer: the status says it all.
        }
    }
}
