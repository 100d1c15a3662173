package dev.synccontext.testing;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;

/**
 * A healthy SSE tab: {@code java.net.http} reading the stream on its own thread, {@link SseDecoder} decoding
 * it, and every event with an id kept (id, name, data). {@link #close()} drops the connection, as a tab whose
 * network went away. For many tabs on one thread, see {@link SseCrowd}; for one that never reads,
 * {@link StalledSocket}.
 */
public final class SseClient implements AutoCloseable {

    /** One event: its id, its name ({@code message} if none) and its data lines joined with LF. */
    public record Event(String id, String event, String data) {
        /** The id's part after its last {@code -}: the channel's sequence number. */
        public long sequence() {
            return Long.parseLong(id.substring(id.lastIndexOf('-') + 1));
        }
    }

    /** Every event received, in order. */
    public final List<Event> events = new CopyOnWriteArrayList<>();
    private final InputStream body;
    private final Thread reader;
    /** Why the stream ended on the reader's side (the connection closed); null while it is open. */
    public volatile @Nullable Throwable failure;

    /**
     * {@code GET uri} through {@code client} with the session's {@code JSESSIONID} {@code cookie} and
     * {@code Last-Event-ID} when given; the answer must be 200, then its stream is read on a daemon thread.
     */
    public SseClient(HttpClient client, URI uri, @Nullable String cookie, @Nullable String lastEventId)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).header("Accept", "text/event-stream")
                .timeout(Duration.ofSeconds(30));
        if (cookie != null) {
            request.header("Cookie", "JSESSIONID=" + cookie);
        }
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        HttpResponse<InputStream> response = client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("GET " + uri + " answered " + response.statusCode());
        }
        this.body = response.body();
        this.reader = new Thread(this::read, "sse-client");
        reader.setDaemon(true);
        reader.start();
    }

    private void read() {
        try (InputStream stream = body) {
            SseDecoder.read(stream, (id, name, data, length, now) -> {
                if (id != null) {
                    events.add(new Event(id, name, new String(data, 0, length, StandardCharsets.UTF_8)));
                }
            });
        } catch (IOException closed) {
            failure = closed;
        }
    }

    /** The last event received; null before the first. */
    public @Nullable Event last() {
        return events.isEmpty() ? null : events.get(events.size() - 1);
    }

    /** The sequence numbers of every event received, in order. */
    public List<Long> sequences() {
        return events.stream().map(Event::sequence).toList();
    }

    @Override
    public void close() throws IOException {
        body.close();
    }
}
