package dev.synccontext.sample;

import static org.awaitility.Awaitility.await;

import dev.synccontext.testing.SseDecoder;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import tools.jackson.databind.JsonNode;

/**
 * A reader of one {@code GET /api/events} stream, as a browser tab's {@code EventSource} would hold it:
 * it keeps every {@code board} event (parsed) with its id ({@code epoch-sequence}), and notes the
 * {@code ended} event (its data is a JSON string: the reason) and the end of the stream. Waits are
 * explicit, with timeouts.
 */
final class EventStream implements AutoCloseable {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final CompletableFuture<HttpResponse<InputStream>> response;
    private final List<JsonNode> boards = new ArrayList<>();
    private final List<String> ids = new ArrayList<>(); // guarded by boards, one per board
    private volatile String endedReason;
    private volatile boolean streamEnded;
    private volatile InputStream body;
    private final Thread reader;

    private EventStream(BoardClient client, String lastEventId) {
        var request = client.request("/api/events").setHeader("Accept", "text/event-stream").timeout(WAIT.multipliedBy(10));
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId); // what EventSource sends when it reconnects
        }
        this.response = client.http().sendAsync(request.GET().build(), BodyHandlers.ofInputStream());
        this.reader = new Thread(this::read, "sse-reader");
        this.reader.setDaemon(true);
    }

    static EventStream open(BoardClient client) {
        return open(client, null);
    }

    /** A reconnect: the stream asks to resume after {@code lastEventId} ({@code null}: a first connect). */
    static EventStream open(BoardClient client, String lastEventId) {
        EventStream stream = new EventStream(client, lastEventId);
        stream.reader.start();
        return stream;
    }

    /** The response status (waits for the headers). */
    int status() {
        return response.orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join().statusCode();
    }

    /** Waits for the first {@code board} event, which the server sends as soon as it subscribed the stream. */
    JsonNode awaitFirstBoard() {
        return awaitBoard(board -> true);
    }

    /** Waits until some {@code board} event satisfies {@code condition}; returns the latest such event. */
    JsonNode awaitBoard(Predicate<JsonNode> condition) {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(20))
                .until(() -> boards().stream().anyMatch(condition));
        List<JsonNode> seen = boards();
        for (int i = seen.size() - 1; i >= 0; i--) {
            if (condition.test(seen.get(i))) {
                return seen.get(i);
            }
        }
        throw new AssertionError("unreachable");
    }

    JsonNode awaitCounter(long counter) {
        return awaitBoard(board -> board.get("counter").asLong() == counter);
    }

    /** Waits for the server's {@code ended} event and the end of the stream. */
    void awaitEndedAndClosed() {
        await().atMost(WAIT).until(() -> endedReason != null && streamEnded);
    }

    /** The {@code ended} event's reason, or {@code null} before it. */
    String endedReason() {
        return endedReason;
    }

    /** Every {@code board} event's id so far, in arrival order. */
    List<String> ids() {
        synchronized (boards) {
            return List.copyOf(ids);
        }
    }

    /** The sequence number of a {@code board} event's id ({@code epoch-sequence}). */
    static long sequence(String id) {
        return Long.parseLong(id.substring(id.lastIndexOf('-') + 1));
    }

    /** The epoch of an event id: the same for every event of one channel (one session's board). */
    static String epoch(String id) {
        return id.substring(0, id.lastIndexOf('-'));
    }

    /** Every {@code board} event so far, in arrival order. */
    List<JsonNode> boards() {
        synchronized (boards) {
            return List.copyOf(boards);
        }
    }

    @Override
    public void close() {
        InputStream stream = body;
        if (stream != null) {
            try {
                stream.close();
            } catch (IOException ignored) {
                // closing a half-read stream; nothing to do
            }
        }
        response.cancel(true);
    }

    private void read() {
        HttpResponse<InputStream> answer;
        try {
            answer = response.get();
        } catch (Exception failed) {
            streamEnded = true;
            return;
        }
        body = answer.body();
        try (InputStream stream = body) {
            SseDecoder.read(stream, (id, name, data, length, now) ->
                    dispatch(name, id, new String(data, 0, length, StandardCharsets.UTF_8)));
        } catch (IOException closed) {
            // closed by close(), or the connection dropped
        } finally {
            streamEnded = true;
        }
    }

    private void dispatch(String event, String id, String data) {
        if ("board".equals(event)) {
            JsonNode board = BoardClient.JSON.readTree(data);
            synchronized (boards) {
                boards.add(board);
                ids.add(id);
            }
        } else if ("ended".equals(event)) {
            endedReason = BoardClient.JSON.readTree(data).asString();
        }
    }
}
