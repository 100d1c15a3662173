package dev.synccontext.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.HttpCookie;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.StringJoiner;

/**
 * The HTTP test client every module's tests use: {@code java.net.http} with its own cookie jar, so one
 * instance is one user's browser, so one HTTP session of the server under test. Real HTTP to a local
 * port, nothing mocked; every request made with {@link #request} has a deadline (unless the caller sets
 * its own), so a hung server fails the test instead of hanging it. Requests go to the base given at
 * construction, or to any URI ({@link #request(URI)}) with the same cookies, so one session can be sent
 * to several servers on purpose. Answers keep status, headers and body ({@link HttpResponse}). Shared
 * through core's test jar; the modules wrap it in their domain's words (the sample's
 * {@code BoardClient}, cluster-it's {@code Client}). Thread-safe (one session used from many threads).
 */
public final class Browser {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

    private final String base;
    private final URI baseUri;
    private final Duration deadline;
    private final CookieManager cookies = new CookieManager(null, CookiePolicy.ACCEPT_ALL);
    private final HttpClient client;

    /**
     * A browser for {@code http://localhost:port}, speaking HTTP/1.1: the test servers do not speak h2c, so
     * an upgrade attempt on every new connection would only add a moving part (a WebFlux test once timed
     * out on one under load).
     */
    public Browser(int port) {
        this(URI.create("http://localhost:" + port), HttpClient.Version.HTTP_1_1, DEADLINE);
    }

    /**
     * A browser for {@code base} (scheme, host and port, no path), speaking {@code version} ({@code
     * HTTP_2} lets the client try an upgrade; {@code HTTP_1_1} never does), every request given {@code
     * deadline} unless it sets its own.
     */
    public Browser(URI base, HttpClient.Version version, Duration deadline) {
        this.base = base.toString();
        this.baseUri = base;
        this.deadline = deadline;
        this.client = HttpClient.newBuilder().version(version).cookieHandler(cookies)
                .connectTimeout(CONNECT_TIMEOUT).build();
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

    /** A form body ({@code application/x-www-form-urlencoded}); {@code fields} are name, value, name, value... */
    public static HttpRequest.BodyPublisher form(String... fields) {
        if (fields.length % 2 != 0) {
            throw new IllegalArgumentException("fields come in name, value pairs; got " + fields.length);
        }
        StringJoiner form = new StringJoiner("&");
        for (int i = 0; i < fields.length; i += 2) {
            form.add(URLEncoder.encode(fields[i], StandardCharsets.UTF_8) + "="
                    + URLEncoder.encode(fields[i + 1], StandardCharsets.UTF_8));
        }
        return HttpRequest.BodyPublishers.ofString(form.toString());
    }

    /** A form POST, as a page's form sends it; {@code fields} are name, value, name, value... */
    public HttpResponse<String> postForm(String path, String... fields) {
        return send(request(path).header("Content-Type", "application/x-www-form-urlencoded").POST(form(fields)));
    }

    public HttpResponse<String> delete(String path) {
        return send(request(path).DELETE());
    }

    /** {@code path} on this browser's server. */
    public URI uri(String path) {
        return URI.create(base + path);
    }

    /** A request to {@code path} on this browser's server, with the deadline, to finish and {@link #send}. */
    public HttpRequest.Builder request(String path) {
        return request(uri(path));
    }

    /** A request to {@code uri} (any server; this browser's cookies go along), with the deadline. */
    public HttpRequest.Builder request(URI uri) {
        return HttpRequest.newBuilder(uri).timeout(deadline);
    }

    /** Sends with this browser's cookies; the body as a string. */
    public HttpResponse<String> send(HttpRequest.Builder request) {
        return send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** Sends with this browser's cookies; the body as {@code body} reads it (a stream, for event streams). */
    public <T> HttpResponse<T> send(HttpRequest.Builder request, HttpResponse.BodyHandler<T> body) {
        try {
            return client.send(request.build(), body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The underlying client (its cookie handler is this browser's jar), for WebSockets and async sends. */
    public HttpClient httpClient() {
        return client;
    }

    /** The value of the cookie named {@code name} this browser sends to its host (any port), or null. */
    public String cookie(String name) {
        return cookies.getCookieStore().get(baseUri).stream()
                .filter(cookie -> cookie.getName().equals(name))
                .map(HttpCookie::getValue)
                .findFirst()
                .orElse(null);
    }

    /** Sets a cookie for this browser's host (path {@code /}), as a script on the page would. */
    public void setCookie(String name, String value) {
        HttpCookie cookie = new HttpCookie(name, value);
        cookie.setPath("/");
        cookie.setVersion(0);
        cookies.getCookieStore().add(baseUri, cookie);
    }
}
