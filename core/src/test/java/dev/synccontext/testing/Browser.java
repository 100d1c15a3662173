package dev.synccontext.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A tiny HTTP client over {@code java.net.http} with its own cookie jar: one instance is one user's
 * browser, so one HTTP session of the server under test. Real HTTP to a local port, nothing mocked;
 * every call has a deadline, so a hung server fails the test instead of hanging it. Shared with the
 * other modules' tests through core's test jar. Thread-safe (one session used from many threads).
 */
public final class Browser {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private final String base;
    private final HttpClient client;

    /** A browser for {@code http://localhost:port}. */
    public Browser(int port) {
        this.base = "http://localhost:" + port;
        this.client = HttpClient.newBuilder().cookieHandler(new CookieManager())
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    public HttpResponse<String> get(String path) {
        return send(request(path).GET());
    }

    /** A POST without a body. */
    public HttpResponse<String> post(String path) {
        return send(request(path).POST(HttpRequest.BodyPublishers.noBody()));
    }

    /** A POST of {@code json} with {@code Content-Type: application/json}. */
    public HttpResponse<String> postJson(String path, String json) {
        return send(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    /** A request to {@code path} on this browser's server, to finish and {@link #send}. */
    public HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(base + path));
    }

    /** Sends with this browser's cookies; the body as a string. */
    public HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return client.send(request.timeout(DEADLINE).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
