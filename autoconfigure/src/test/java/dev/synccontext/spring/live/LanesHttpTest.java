package dev.synccontext.spring.live;

import static dev.synccontext.spring.live.LanesTab.mine;
import static dev.synccontext.spring.live.LanesTab.note;
import static dev.synccontext.spring.live.LanesTab.say;
import static dev.synccontext.spring.live.LanesTab.subscribers;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.live.LiveSubscriber;
import dev.synccontext.spring.live.LanesApp.LaneEvent;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.SseClient;
import dev.synccontext.testing.StalledSocket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Several independent channels on one servlet SSE connection ({@link LiveSse} with {@link LiveLane}s, real Tomcat):
 * a session's private channel and a lobby's own channel, each in its order on one stream; a reconnect resumes each
 * from its own part of the event id (with the premise: the one shared sequence of a lobby publishing into the
 * private channel loses the private event's resume when the lobby's burst passes the replay); a malformed id gets
 * snapshots; a lobby closing ends only its lane; a stalled tab does not hold the lobby's other subscribers.
 */
@SpringBootTest(classes = LanesApp.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "synccontext.live.policy=drop-oldest", "synccontext.live.buffer-capacity=32",
        "synccontext.live.replay-capacity=16", "synccontext.live.max-lanes-per-stream=3", "server.shutdown=immediate"})
class LanesHttpTest {

    private static final AtomicInteger RUNS = new AtomicInteger();
    private static final Duration WAIT = Duration.ofSeconds(60);

    @LocalServerPort
    int port;

    @Autowired
    LiveChannels channels;

    @Autowired
    LaneLimit laneLimit;

    @Test
    void oneConnectionCarriesTheSessionsChannelAndTheLobbysEachInItsOrder() throws Exception {
        String lobby = "order-" + RUNS.incrementAndGet();
        Browser alice = new Browser(port);
        Browser bob = new Browser(port);
        try (SseClient tab = tab(alice, lobby, null)) {
            await().atMost(WAIT).until(() -> tab.events.size() == 2);
            for (int i = 0; i < 10; i++) {
                say(alice, lobby, "a" + i);
                say(bob, lobby, "b" + i);
                note(alice, "n" + i);
            }
            await().atMost(WAIT).until(() -> tab.events.size() == 2 + 30);
            List<LaneEvent> events = LaneEvent.all(tab.events);
            List<LaneEvent> mine = LaneEvent.of(events, "me");
            List<LaneEvent> lobbys = LaneEvent.of(events, "lobby:" + lobby);
            assertThat(mine.get(0).snapshot()).as("the private lane starts with its snapshot").isTrue();
            assertThat(lobbys.get(0).snapshot()).as("the lobby's lane starts with its snapshot").isTrue();
            assertThat(mine.subList(1, 11)).extracting(LaneEvent::data).as("the notes, in order")
                    .containsExactlyElementsOf(IntStream.range(0, 10).mapToObj(i -> "\"n" + i + "\"").toList());
            assertThat(lobbys.subList(1, 21)).extracting(LaneEvent::data).as("the lobby's lines, in its order")
                    .containsExactlyElementsOf(IntStream.range(0, 10)
                            .mapToObj(i -> List.of("\"a" + i + "\"", "\"b" + i + "\"")).flatMap(List::stream).toList());
            assertThat(lobbys).extracting(LaneEvent::sequence).as("the lobby's own sequence, no gap")
                    .containsExactlyElementsOf(LongStream.rangeClosed(0, 20).boxed().toList());
            assertThat(mine).extracting(LaneEvent::sequence).as("the private channel's own sequence, no gap")
                    .containsExactlyElementsOf(LongStream.rangeClosed(0, 10).boxed().toList());
            assertThat(tab.last().id()).as("the id names every lane's position")
                    .isEqualTo("me=" + mine.get(10).id() + ";lobby:" + lobby + "=" + lobbys.get(20).id());
        }
    }

    @Test
    void aReconnectResumesEachLaneFromItsOwnPosition() throws Exception {
        String lobby = "resume-" + RUNS.incrementAndGet();
        Browser alice = new Browser(port);
        String lastSeen;
        try (SseClient tab = tab(alice, lobby, null)) {
            await().atMost(WAIT).until(() -> tab.events.size() == 2);
            note(alice, "before");
            say(alice, lobby, "before");
            await().atMost(WAIT).until(() -> tab.events.size() == 4);
            lastSeen = tab.last().id();
        }
        note(alice, "away"); // while the tab is away: one private event, and more lines than the lobby replays (16)
        for (int i = 0; i < 20; i++) {
            say(alice, lobby, "l" + i);
        }
        try (SseClient back = tab(alice, lobby, lastSeen)) {
            await().atMost(WAIT).until(() -> back.events.size() == 2);
            List<LaneEvent> events = LaneEvent.all(back.events);
            LaneEvent mine = LaneEvent.of(events, "me").get(0);
            LaneEvent lobbys = LaneEvent.of(events, "lobby:" + lobby).get(0);
            assertThat(mine.snapshot()).as("the private lane replays what it missed").isFalse();
            assertThat(mine.data()).isEqualTo("\"away\"");
            assertThat(mine.sequence()).isEqualTo(2);
            assertThat(lobbys.snapshot()).as("the lobby's lane, past its replay, gets its snapshot").isTrue();
            assertThat(lobbys.data()).isEqualTo("\"lines:21\"");
        }
    }

    @Test
    void premiseOneSharedSequenceLosesThePrivateEventsResumeWhenALobbyFloodsIt() throws Exception {
        String lobby = "premise-" + RUNS.incrementAndGet();
        Browser alice = new Browser(port);
        assertThat(alice.post("/lanes/" + lobby + "/join-into-me").statusCode()).isEqualTo(200);
        String lastSeen;
        try (SseClient tab = new SseClient(alice.httpClient(), alice.uri("/lanes/single"), null, null)) {
            await().atMost(WAIT).until(() -> tab.events.size() == 1);
            note(alice, "before");
            await().atMost(WAIT).until(() -> tab.events.size() == 2);
            lastSeen = tab.last().id();
        }
        note(alice, "away"); // the same while away as above, now numbered in one sequence
        for (int i = 0; i < 20; i++) {
            say(alice, lobby, "l" + i);
        }
        try (SseClient back = new SseClient(alice.httpClient(), alice.uri("/lanes/single"), null, lastSeen)) {
            await().atMost(WAIT).until(() -> !back.events.isEmpty());
            assertThat(back.events.get(0).event()).as("21 missed in one sequence pass its replay of 16: a snapshot,"
                    + " and the private note is not replayed").isEqualTo("snapshot");
        }
    }

    @Test
    void aMalformedOrForeignLastEventIdGetsEveryLaneASnapshot() throws Exception {
        String lobby = "garbage-" + RUNS.incrementAndGet();
        Browser alice = new Browser(port);
        for (String garbage : List.of("garbage", "me", "me=;=x;;lobby:x=abc-1", "me=zzz-99999999999999999999",
                "other=abc-1")) {
            try (SseClient tab = tab(alice, lobby, garbage)) {
                await().atMost(WAIT).until(() -> tab.events.size() == 2);
                assertThat(LaneEvent.all(tab.events)).as("Last-Event-ID " + garbage).allSatisfy(
                        event -> assertThat(event.snapshot()).isTrue());
            }
        }
    }

    @Test
    void aLobbyClosingEndsOnlyItsLane() throws Exception {
        String lobby = "closing-" + RUNS.incrementAndGet();
        Browser alice = new Browser(port);
        try (SseClient tab = tab(alice, lobby, null)) {
            await().atMost(WAIT).until(() -> tab.events.size() == 2);
            assertThat(alice.post("/lanes/" + lobby + "/close").statusCode()).isEqualTo(200);
            await().atMost(WAIT).until(() -> tab.events.size() == 4);
            List<LaneEvent> lobbys = LaneEvent.of(LaneEvent.all(tab.events), "lobby:" + lobby);
            assertThat(lobbys.get(1).event()).as("the channel's last message").isEqualTo("closed");
            assertThat(lobbys.get(2).event()).as("then the lane's end").isEqualTo("closed-lane");
            assertThat(lobbys.get(2).data()).isEqualTo("{\"closed\":\"channel-closed\"}");
            assertThat(tab.last().id()).as("the id no longer names the lobby").startsWith("me=").doesNotContain("lobby");
            note(alice, "still here");
            await().atMost(WAIT).until(() -> tab.events.size() == 5);
            assertThat(LaneEvent.of(tab.last())).extracting(LaneEvent::lane, LaneEvent::data)
                    .containsExactly("me", "\"still here\"");
            assertThat(tab.failure).as("the stream is still open").isNull();
        }
    }

    @Test
    void aStalledTabWithTwoLanesDoesNotHoldTheLobbysOtherSubscribers() throws Exception {
        String lobby = "stalled-" + RUNS.incrementAndGet();
        Browser stalledUser = new Browser(port);
        note(stalledUser, "hello"); // makes its session
        Browser bob = new Browser(port);
        try (StalledSocket stalled = LanesTab.stalled(port, "JSESSIONID",
                stalledUser.cookie("JSESSIONID"), lobby);
                SseClient healthy = tab(bob, lobby, null)) {
            await().atMost(WAIT).until(() -> healthy.events.size() == 2);
            await().atMost(WAIT).until(() -> subscribers(bob, lobby).size() == 2);
            int lines = LanesTab.floodUntilADrop(bob, lobby, healthy, 2);
            List<LaneEvent> got = LaneEvent.of(LaneEvent.all(healthy.events), "lobby:" + lobby);
            assertThat(got.subList(1, got.size())).extracting(LaneEvent::sequence).as("every line, in order")
                    .containsExactlyElementsOf(LongStream.rangeClosed(1, lines).boxed().toList());
            List<long[]> lobbySubscribers = subscribers(bob, lobby);
            assertThat(lobbySubscribers).as("the stalled tab's lobby lane: bounded, dropping")
                    .anySatisfy(s -> {
                        assertThat(s[0]).isLessThanOrEqualTo(32);
                        assertThat(s[2]).isGreaterThan(0);
                    });
            long[] before = mine(stalledUser).get(0);
            for (int i = 0; i < 5; i++) {
                note(stalledUser, "n" + i);
            }
            long[] after = mine(stalledUser).get(0);
            assertThat(after[1]).as("the stalled tab's private lane writes nothing: the stream's pressure reached it")
                    .isEqualTo(before[1]);
            assertThat(after[0]).as("its notes wait in its own buffer").isEqualTo(before[0] + 5);
        }
    }

    @Test
    void goingAwayIsWrittenOncePerConnectionThenTheStreamEnds() throws Exception {
        String lobby = "away-" + RUNS.incrementAndGet();
        Browser alice = new Browser(port);
        note(alice, "hello");
        java.util.concurrent.CompletableFuture<HttpResponse<String>> stream = alice.httpClient().sendAsync(
                alice.request("/lanes/events?lobby=" + lobby).header("Accept", "text/event-stream").build(),
                HttpResponse.BodyHandlers.ofString());
        await().atMost(WAIT).until(() -> subscribers(alice, lobby).size() == 1 && mine(alice).size() == 1);
        channels.group().subscribers().forEach(LiveSubscriber::goAway); // what the shutdown drain does, each lane
        String body = stream.get(60, java.util.concurrent.TimeUnit.SECONDS).body();
        assertThat(body.split("event:going-away", -1)).as("one going-away for the connection's two lanes:\n" + body)
                .hasSize(2);
        assertThat(body.strip()).as("the last event").endsWith("event:going-away\ndata:{\"reconnect\":true}");
    }

    @Test
    void aStreamOfMoreLanesThanTheCapIsRefusedWith400NamingTheCapAndCounted() throws Exception {
        LanesTab.checkTheLaneCap(new Browser(port), laneLimit, "cap-" + RUNS.incrementAndGet());
    }

    private static SseClient tab(Browser user, String lobby, String lastEventId) throws Exception {
        return LanesTab.open(user, lastEventId, lobby);
    }
}
