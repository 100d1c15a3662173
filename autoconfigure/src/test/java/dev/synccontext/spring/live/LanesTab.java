package dev.synccontext.spring.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.testing.Browser;
import dev.synccontext.testing.SseClient;
import dev.synccontext.testing.StalledSocket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.awaitility.core.ConditionTimeoutException;

/**
 * What the lanes tests do as a browser, on {@link LanesApp} (MVC) and {@link LanesFluxApp} (WebFlux) alike: the
 * same paths on both, so {@link LanesScenarios} runs on either.
 */
final class LanesTab {

    private LanesTab() {
    }

    /** Gives {@code user} a session (its cookie), publishing nothing: the private channel keeps its numbering. */
    static void session(Browser user) {
        HttpResponse<String> answer = user.get("/lanes/me");
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    }

    /** A tab's stream: its private lane and one lane per lobby. */
    static SseClient open(Browser user, String lastEventId, String... lobbies) throws Exception {
        return new SseClient(user.httpClient(), user.uri(path(lobbies)), null, lastEventId);
    }

    /** A tab of {@code user} (its session cookie named {@code cookie}) that stops reading: its lanes stall. */
    static StalledSocket stalled(int port, Browser user, String cookie, String... lobbies) throws Exception {
        return new StalledSocket(port, "GET " + path(lobbies) + " HTTP/1.1\r\nHost: 127.0.0.1:" + port
                + "\r\nAccept: text/event-stream\r\nCookie: " + cookie + "=" + user.cookie(cookie) + "\r\n\r\n");
    }

    /**
     * Proves the cap ({@code synccontext.live.max-lanes-per-stream=3} in the lanes tests): a stream of three lanes
     * opens; one of four is answered {@code 400} with a message that names the cap and the property, is counted, and
     * subscribes none of its lanes.
     */
    static void checkTheLaneCap(Browser user, LaneLimit limit, String lobby) throws Exception {
        assertThat(limit.max()).as("the lanes tests' cap").isEqualTo(3);
        long refusedBefore = limit.refused();
        try (SseClient atTheCap = open(user, null, lobby + "-a", lobby + "-b")) {
            await().atMost(Duration.ofSeconds(60)).until(() -> atTheCap.events.size() == 3);
        }
        HttpResponse<String> overTheCap = user.httpClient().send(user.request(path(lobby + "-a", lobby + "-b",
                lobby + "-c")).header("Accept", "text/event-stream").build(), HttpResponse.BodyHandlers.ofString());
        assertThat(overTheCap.statusCode()).as("a stream of four lanes over a cap of three: " + overTheCap.body())
                .isEqualTo(400);
        assertThat(overTheCap.body()).as("the refusal names the lanes asked for, the cap and the property")
                .contains("asked for 4 live lanes", "at most 3", "synccontext.live.max-lanes-per-stream");
        assertThat(limit.refused()).as("the refusal is counted").isEqualTo(refusedBefore + 1);
        assertThat(subscribers(user, lobby + "-c")).as("the refused stream subscribed none of its lanes").isEmpty();
    }

    /**
     * Says lines of 16 KB in the lobby until a subscriber of its channel dropped one; how many were said. After each
     * 20 lines it waits for {@code pacer} (a tab that reads, {@code before} events in) to have them all, so a tab that
     * reads is never more than 20 lines behind and cannot overflow a buffer of 32 however loaded the machine is: the
     * lane that drops is one whose client stopped reading.
     */
    static int floodUntilADrop(Browser user, String lobby, SseClient pacer, int before) {
        int lines = 0;
        while (subscribers(user, lobby).stream().noneMatch(s -> s[2] > 0)) {
            assertThat(lines).as("a stalled tab's lane overflows its buffer within this many lines").isLessThan(3_000);
            for (int i = 0; i < 20; i++) {
                say(user, lobby, ++lines + "&pad=16384");
            }
            int said = lines;
            awaitEvents(pacer, before + said, () -> said + " lines; lobby subscribers "
                    + show(subscribers(user, lobby)));
        }
        return lines;
    }

    /** Waits for {@code count} events on {@code tab}; on time-out fails with how many came and {@code state}. */
    static void awaitEvents(SseClient tab, int count, Supplier<String> state) {
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> tab.events.size() >= count);
        } catch (ConditionTimeoutException timedOut) {
            throw new AssertionError("waited for " + count + " events, got " + tab.events.size() + " (failure: "
                    + tab.failure + "); " + state.get(), timedOut);
        }
        assertThat(tab.events).as("no more events than awaited").hasSize(count);
    }

    /** {@code [buffered, written, dropped]} of each subscriber, for a failure message. */
    static String show(List<long[]> subscribers) {
        return subscribers.stream().map(Arrays::toString).toList().toString();
    }

    static String path(String... lobbies) {
        return "/lanes/events?" + String.join("&", Arrays.stream(lobbies).map(lobby -> "lobby=" + lobby).toList());
    }

    static void say(Browser user, String lobby, String text) {
        HttpResponse<String> answer = user.post("/lanes/" + lobby + "/say?text=" + text);
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    }

    static void note(Browser user, String text) {
        note(user, text, 0);
    }

    /** A private note of {@code text} and {@code pad} more characters, which the server adds. */
    static void note(Browser user, String text, int pad) {
        HttpResponse<String> answer = user.post("/lanes/note?text=" + text.replace(" ", "+") + "&pad=" + pad);
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
