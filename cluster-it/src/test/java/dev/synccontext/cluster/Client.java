package dev.synccontext.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.testing.Browser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.UUID;

/**
 * One user's browser, in the cluster's words, over core's test {@link Browser}: a cookie jar (so one
 * instance is one session) and, for nginx's affinity hash, a {@code route} cookie set once, as a small
 * script on the page would. Requests go to whichever port is given, so one session can be sent to node A,
 * node B or nginx on purpose; a connection failure is an answer here (a node may be down on purpose).
 */
final class Client {

    /** A response: status, body and the node that answered ({@code X-Node}), or the failure. */
    record Reply(int status, String body, String node, IOException failure) {

        boolean ok() {
            return status == 200;
        }

        /** This reply, once asserted to be a 200 (the body describes a failure). */
        Reply asserted200() {
            assertThat(status).as(body).isEqualTo(200);
            return this;
        }
    }

    private final Browser browser = new Browser(URI.create("http://127.0.0.1"), HttpClient.Version.HTTP_2,
            Duration.ofSeconds(30));

    Client withRoute() {
        browser.setCookie("route", UUID.randomUUID().toString());
        return this;
    }

    Reply get(int port, String path) {
        return send(browser.request(uri(port, path)).GET());
    }

    Reply post(int port, String path) {
        return send(browser.request(uri(port, path)).POST(HttpRequest.BodyPublishers.noBody()));
    }

    /** The Spring Session id, decoded from the {@code SESSION} cookie (the servlet side Base64-encodes it). */
    String sessionId() {
        return new String(Base64.getDecoder().decode(sessionCookie()), StandardCharsets.UTF_8);
    }

    /** The {@code SESSION} cookie's value as it is (WebFlux sends the id itself). */
    String sessionCookie() {
        String value = browser.cookie("SESSION");
        if (value == null) {
            throw new IllegalStateException("no SESSION cookie yet");
        }
        return value;
    }

    private static URI uri(int port, String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private Reply send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = browser.send(request);
            return new Reply(response.statusCode(), response.body(),
                    response.headers().firstValue("X-Node").orElse(""), null);
        } catch (UncheckedIOException e) {
            return new Reply(-1, "", "", e.getCause());
        }
    }
}
