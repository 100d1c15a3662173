package dev.synccontext.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.HttpCookie;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.StringJoiner;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One browser-like visitor of the sample: its own cookie jar (so its own HTTP session), the CSRF
 * header the page sends, and plain {@code java.net.http} underneath — real HTTP, nothing mocked.
 */
final class BoardClient {

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final String ACTUATOR_USER = "actuator";
    static final String ACTUATOR_PASSWORD = "actuator-dev-password";

    private final URI base;
    private final CookieManager cookies = new CookieManager(null, CookiePolicy.ACCEPT_ALL);
    private final HttpClient http;

    BoardClient(int port) {
        this.base = URI.create("http://127.0.0.1:" + port);
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .cookieHandler(cookies)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    URI uri(String path) {
        return base.resolve(path);
    }

    HttpClient http() {
        return http;
    }

    Reply get(String path) {
        return send(request(path).GET());
    }

    Reply post(String path) {
        return send(withCsrf(request(path)).POST(BodyPublishers.noBody()));
    }

    /** A form post, as the page's forms send it; {@code fields} are name, value, name, value... */
    Reply postForm(String path, String... fields) {
        StringJoiner form = new StringJoiner("&");
        for (int i = 0; i < fields.length; i += 2) {
            form.add(URLEncoder.encode(fields[i], StandardCharsets.UTF_8) + "="
                    + URLEncoder.encode(fields[i + 1], StandardCharsets.UTF_8));
        }
        return send(withCsrf(request(path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(BodyPublishers.ofString(form.toString())));
    }

    Reply delete(String path) {
        return send(withCsrf(request(path)).DELETE());
    }

    /** A GET with the management credentials (HTTP basic). */
    Reply getAsActuator(String path) {
        return send(request(path).setHeader("Accept", "*/*")
                .header("Authorization", basic(ACTUATOR_USER, ACTUATOR_PASSWORD)).GET());
    }

    Reply send(HttpRequest.Builder request) {
        try {
            var response = http.send(request.build(), BodyHandlers.ofString());
            return new Reply(response.statusCode(), response.headers(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30)).header("Accept", "application/json");
    }

    /** Opens the session's event stream ({@code GET /api/events}) and starts reading it. */
    EventStream events() {
        return EventStream.open(this);
    }

    /** The session cookie's value, or {@code null} before the server started a session. */
    String sessionId() {
        return cookie("JSESSIONID");
    }

    /** Forgets every cookie except the session cookie's value, which is set again as given. */
    void useSessionId(String sessionId) {
        HttpCookie cookie = new HttpCookie("JSESSIONID", sessionId);
        cookie.setPath("/");
        cookie.setVersion(0);
        cookies.getCookieStore().add(base, cookie);
    }

    static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    private HttpRequest.Builder withCsrf(HttpRequest.Builder request) {
        String token = cookie("XSRF-TOKEN");
        return token == null ? request : request.header("X-XSRF-TOKEN", token);
    }

    private String cookie(String name) {
        return cookies.getCookieStore().get(base).stream()
                .filter(cookie -> cookie.getName().equals(name))
                .map(HttpCookie::getValue)
                .findFirst()
                .orElse(null);
    }

    /** An HTTP answer. */
    record Reply(int status, HttpHeaders headers, String body) {

        JsonNode json() {
            return JSON.readTree(body);
        }

        long counter() {
            return json().get("counter").asLong();
        }

        /** The problem detail's {@code detail} message. */
        String detail() {
            return json().path("detail").asString();
        }

        @Override
        public String toString() {
            return status + " " + body;
        }
    }
}
