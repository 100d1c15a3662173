package dev.synccontext.cluster;

import java.io.IOException;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.UUID;

/**
 * One user's browser: a cookie jar (so one instance is one session) and, for nginx's affinity hash,
 * a {@code route} cookie set once, as a small script on the page would. Requests go to whichever port
 * is given, so one session can be sent to node A, node B or nginx on purpose.
 */
final class Client {

    /** A response: status, body and the node that answered ({@code X-Node}), or the failure. */
    record Reply(int status, String body, String node, IOException failure) {

        boolean ok() {
            return status == 200;
        }
    }

    private final CookieManager cookies = new CookieManager();
    private final HttpClient http = HttpClient.newBuilder().cookieHandler(cookies)
            .connectTimeout(Duration.ofSeconds(5)).build();

    Client withRoute() {
        HttpCookie route = new HttpCookie("route", UUID.randomUUID().toString());
        route.setPath("/");
        route.setVersion(0);
        cookies.getCookieStore().add(URI.create("http://127.0.0.1/"), route);
        return this;
    }

    Reply get(int port, String path) {
        return send(HttpRequest.newBuilder(uri(port, path)).GET());
    }

    Reply post(int port, String path) {
        return send(HttpRequest.newBuilder(uri(port, path)).POST(HttpRequest.BodyPublishers.noBody()));
    }

    /** The Spring Session id, decoded from the {@code SESSION} cookie (the servlet side Base64-encodes it). */
    String sessionId() {
        return new String(Base64.getDecoder().decode(sessionCookie()), StandardCharsets.UTF_8);
    }

    /** The {@code SESSION} cookie's value as it is (WebFlux sends the id itself). */
    String sessionCookie() {
        return cookies.getCookieStore().getCookies().stream().filter(c -> c.getName().equals("SESSION")).findFirst()
                .map(java.net.HttpCookie::getValue).orElseThrow(() -> new IllegalStateException("no SESSION cookie yet"));
    }

    private static URI uri(int port, String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private Reply send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Reply(response.statusCode(), response.body(),
                    response.headers().firstValue("X-Node").orElse(""), null);
        } catch (IOException e) {
            return new Reply(-1, "", "", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
