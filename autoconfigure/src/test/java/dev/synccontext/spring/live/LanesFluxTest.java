package dev.synccontext.spring.live;

import static dev.synccontext.spring.live.LanesTab.note;
import static dev.synccontext.spring.live.LanesTab.say;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.spring.live.LanesApp.LaneEvent;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.SseClient;
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
 * {@link LanesHttpTest} on WebFlux over real Reactor Netty: one {@link LiveFlux} stream carries a session's private
 * channel and a lobby's own channel, each in its order; a reconnect resumes each from its own part of the event id
 * (the private lane replays, the lobby's, past its replay, gets a snapshot); a lobby closing ends only its lane.
 */
@SpringBootTest(classes = LanesFluxApp.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = {"spring.main.web-application-type=reactive", "synccontext.live.policy=drop-oldest",
                "synccontext.live.buffer-capacity=32", "synccontext.live.replay-capacity=16",
                "synccontext.live.max-lanes-per-stream=3", "server.shutdown=immediate"})
class LanesFluxTest {

    private static final AtomicInteger RUNS = new AtomicInteger();
    private static final Duration WAIT = Duration.ofSeconds(60);

    @LocalServerPort
    int port;

    @Autowired
    LaneLimit laneLimit;

    @Test
    void oneStreamCarriesBothLanesInTheirOrderAndAReconnectResumesEachFromItsOwnPosition() throws Exception {
        String lobby = "flux-" + RUNS.incrementAndGet();
        Browser alice = new Browser(port);
        Browser bob = new Browser(port);
        note(alice, "hello"); // makes its WebSession
        String lastSeen;
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
            assertThat(mine.get(0).snapshot()).isTrue();
            assertThat(lobbys.get(0).snapshot()).isTrue();
            assertThat(mine.subList(1, 11)).extracting(LaneEvent::data).as("the notes, in order")
                    .containsExactlyElementsOf(IntStream.range(0, 10).mapToObj(i -> "\"n" + i + "\"").toList());
            assertThat(lobbys).extracting(LaneEvent::sequence).as("the lobby's own sequence, no gap")
                    .containsExactlyElementsOf(LongStream.rangeClosed(0, 20).boxed().toList());
            assertThat(lobbys.subList(1, 21)).extracting(LaneEvent::data).as("the lobby's lines, in its order")
                    .containsExactlyElementsOf(IntStream.range(0, 10)
                            .mapToObj(i -> List.of("\"a" + i + "\"", "\"b" + i + "\"")).flatMap(List::stream).toList());
            lastSeen = tab.last().id();
            assertThat(lastSeen).isEqualTo("me=" + mine.get(10).id() + ";lobby:" + lobby + "=" + lobbys.get(20).id());
        }
        note(alice, "away"); // while away: one private event, and more lines than the lobby replays (16)
        for (int i = 0; i < 20; i++) {
            say(bob, lobby, "l" + i);
        }
        try (SseClient back = tab(alice, lobby, lastSeen)) {
            await().atMost(WAIT).until(() -> back.events.size() == 2);
            List<LaneEvent> events = LaneEvent.all(back.events);
            LaneEvent mine = LaneEvent.of(events, "me").get(0);
            LaneEvent lobbys = LaneEvent.of(events, "lobby:" + lobby).get(0);
            assertThat(mine.snapshot()).as("the private lane replays what it missed").isFalse();
            assertThat(mine.data()).isEqualTo("\"away\"");
            assertThat(mine.sequence()).isEqualTo(12);
            assertThat(lobbys.snapshot()).as("the lobby's lane, past its replay, gets its snapshot").isTrue();
            assertThat(lobbys.data()).isEqualTo("\"lines:40\"");
        }
    }

    @Test
    void aLobbyClosingEndsOnlyItsLane() throws Exception {
        String lobby = "flux-closing-" + RUNS.incrementAndGet();
        Browser alice = new Browser(port);
        note(alice, "hello");
        try (SseClient tab = tab(alice, lobby, null)) {
            await().atMost(WAIT).until(() -> tab.events.size() == 2);
            assertThat(alice.post("/lanes/" + lobby + "/close").statusCode()).isEqualTo(200);
            await().atMost(WAIT).until(() -> tab.events.size() == 4);
            List<LaneEvent> lobbys = LaneEvent.of(LaneEvent.all(tab.events), "lobby:" + lobby);
            assertThat(lobbys).extracting(LaneEvent::event).containsExactly("snapshot", "closed", "closed-lane");
            note(alice, "still here");
            await().atMost(WAIT).until(() -> tab.events.size() == 5);
            assertThat(LaneEvent.of(tab.last())).extracting(LaneEvent::lane, LaneEvent::data)
                    .containsExactly("me", "\"still here\"");
            assertThat(tab.failure).as("the stream is still open").isNull();
        }
    }

    @Test
    void aStreamOfMoreLanesThanTheCapIsRefusedWith400NamingTheCapAndCounted() throws Exception {
        LanesTab.checkTheLaneCap(new Browser(port), laneLimit, "cap-" + RUNS.incrementAndGet());
    }

    private static SseClient tab(Browser user, String lobby, String lastEventId) throws Exception {
        return LanesTab.open(user, lastEventId, lobby);
    }
}
