package dev.synccontext.spring.live;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
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
 * A healthy SSE tab: {@code java.net.http} reading the stream on its own thread and keeping every event
 * (id, name, data). {@link #close()} drops the connection, as a tab whose network went away.
 */
final class SseClient implements AutoCloseable {

    record Event(String id, String event, String data) {
        long sequence() {
            return Long.parseLong(id.substring(id.lastIndexOf('-') + 1));
        }
    }

    final List<Event> events = new CopyOnWriteArrayList<>();
    private final InputStream body;
    private final Thread reader;
    volatile @Nullable Throwable failure;

    SseClient(HttpClient client, URI uri, @Nullable String cookie, @Nullable String lastEventId)
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
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
            String id = null;
            String event = "message";
            StringBuilder data = new StringBuilder();
            for (String line; (line = lines.readLine()) != null; ) {
                if (line.isEmpty()) {
                    if (id != null) {
                        events.add(new Event(id, event, data.toString()));
                    }
                    id = null;
                    event = "message";
                    data.setLength(0);
                } else if (line.startsWith("id:")) {
                    id = line.substring(3);
                } else if (line.startsWith("event:")) {
                    event = line.substring(6);
                } else if (line.startsWith("data:")) {
                    data.append(line.substring(5));
                }
            }
        } catch (IOException closed) {
            failure = closed;
        }
    }

    @Nullable Event last() {
        return events.isEmpty() ? null : events.get(events.size() - 1);
    }

    List<Long> sequences() {
        return events.stream().map(Event::sequence).toList();
    }

    @Override
    public void close() throws IOException {
        body.close();
    }
}
