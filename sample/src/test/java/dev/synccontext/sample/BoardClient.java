package dev.synccontext.sample;

import dev.synccontext.testing.Browser;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One browser-like visitor of the sample, in the board's words, over core's test {@link Browser} (its own
 * cookie jar, so its own HTTP session; real HTTP, nothing mocked): HTTP/1.1 as the page's browser speaks
 * it to the sample, JSON asked for, and the CSRF header the page sends on every change.
 */
final class BoardClient {

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final String ACTUATOR_USER = "actuator";
    static final String ACTUATOR_PASSWORD = "actuator-dev-password";

    private final Browser browser;

    BoardClient(int port) {
        this.browser = new Browser(URI.create("http://127.0.0.1:" + port), HttpClient.Version.HTTP_1_1,
                Duration.ofSeconds(30));
    }

    URI uri(String path) {
        return browser.uri(path);
    }

    HttpClient http() {
        return browser.httpClient();
    }

    Reply get(String path) {
        return send(request(path).GET());
    }

    Reply post(String path) {
        return send(withCsrf(request(path)).POST(BodyPublishers.noBody()));
    }

    /** A form post, as the page's forms send it; {@code fields} are name, value, name, value... */
    Reply postForm(String path, String... fields) {
        return send(withCsrf(request(path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(Browser.form(fields)));
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
        var response = browser.send(request);
        return new Reply(response.statusCode(), response.headers(), response.body());
    }

    HttpRequest.Builder request(String path) {
        return browser.request(path).header("Accept", "application/json");
    }

    /** Opens the session's event stream ({@code GET /api/events}) and starts reading it. */
    EventStream events() {
        return EventStream.open(this);
    }

    /** Reopens the event stream as a browser reconnects: with {@code Last-Event-ID: lastEventId}. */
    EventStream events(String lastEventId) {
        return EventStream.open(this, lastEventId);
    }

    /** The session cookie's value, or {@code null} before the server started a session. */
    String sessionId() {
        return browser.cookie("JSESSIONID");
    }

    /** The value of the cookie {@code name} this visitor sends (Spring Session's is {@code SESSION}), or {@code null}. */
    String cookie(String name) {
        return browser.cookie(name);
    }

    /** Sets the session cookie to {@code sessionId}, as a visitor who copied it from another would. */
    void useSessionId(String sessionId) {
        browser.setCookie("JSESSIONID", sessionId);
    }

    static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    private HttpRequest.Builder withCsrf(HttpRequest.Builder request) {
        String token = browser.cookie("XSRF-TOKEN");
        return token == null ? request : request.header("X-XSRF-TOKEN", token);
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
