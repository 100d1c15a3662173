package dev.synccontext.spring.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.testing.Browser;
import dev.synccontext.testing.SseClient;
import dev.synccontext.testing.StalledSocket;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.List;

/**
 * What the lanes tests do as a browser, on {@link LanesApp} (MVC) and {@link LanesFluxApp} (WebFlux) alike: the
 * same paths on both, so {@link LanesHttpTest} and {@link LanesFluxTest} share one client.
 */
final class LanesTab {

    private LanesTab() {
    }

    /** A tab's stream: its private lane and one lane per lobby. */
    static SseClient open(Browser user, String lastEventId, String... lobbies) throws Exception {
        return new SseClient(user.httpClient(), user.uri(path(lobbies)), null, lastEventId);
    }

    /** A tab of {@code user} (its session cookie {@code cookie}) that stops reading: its stream's lanes stall. */
    static StalledSocket stalled(int port, String cookie, String value, String... lobbies) throws Exception {
        return new StalledSocket(port, "GET " + path(lobbies) + " HTTP/1.1\r\nHost: 127.0.0.1:" + port
                + "\r\nAccept: text/event-stream\r\nCookie: " + cookie + "=" + value + "\r\n\r\n");
    }

    static String path(String... lobbies) {
        return "/lanes/events?" + String.join("&", Arrays.stream(lobbies).map(lobby -> "lobby=" + lobby).toList());
    }

    static void say(Browser user, String lobby, String text) {
        HttpResponse<String> answer = user.post("/lanes/" + lobby + "/say?text=" + text);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    }

    static void note(Browser user, String text) {
        HttpResponse<String> answer = user.post("/lanes/note?text=" + text.replace(" ", "+"));
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    }

    /** The lobby channel's subscribers' {@code buffered, written, dropped}. */
    static List<long[]> subscribers(Browser user, String lobby) {
        return parse(user.get("/lanes/" + lobby + "/subscribers").body());
    }

    /** The user's private channel's subscribers' {@code buffered, written, dropped}. */
    static List<long[]> mine(Browser user) {
        return parse(user.get("/lanes/me").body());
    }

    /** {@code buffered,written,dropped} per line. */
    private static List<long[]> parse(String lines) {
        return lines.isBlank() ? List.of() : lines.lines()
                .map(line -> Arrays.stream(line.split(",")).mapToLong(Long::parseLong).toArray()).toList();
    }
}
