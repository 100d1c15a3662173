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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * What a stream of lanes guarantees on any server, run by {@link LanesHttpTest} (Tomcat) and {@link LanesFluxTest}
 * (Reactor Netty) against the same paths ({@link LanesApp}, {@link LanesFluxApp}) with the same settings: a
 * session's private channel and a lobby's own channel, each in its order on one stream; a reconnect resumes each
 * from its own part of the event id; a malformed id gets snapshots; a lobby closing ends only its lane; a tab that
 * stops reading (a raw socket with a 2 KB receive buffer) costs each of its lanes that lane's bounded buffer, under
 * the overflow policy, and holds neither the lobby's other tab nor its own session nor a thread; on shutdown every
 * connection gets one going-away for all its lanes, and a connection that does not read is not waited for; a
 * stream of more lanes than {@code synccontext.live.max-lanes-per-stream} is refused.
 */
abstract class LanesScenarios {

    /** The settings both servers run the scenarios with. */
    static final String POLICY = "synccontext.live.policy=drop-oldest";
    static final String BUFFER = "synccontext.live.buffer-capacity=32";
    static final String REPLAY = "synccontext.live.replay-capacity=16";
    static final String CAP = "synccontext.live.max-lanes-per-stream=3";

    static final AtomicInteger RUNS = new AtomicInteger();
    static final Duration WAIT = Duration.ofSeconds(60);

    @LocalServerPort
    int port;

    @Autowired
    LiveChannels channels;

    @Autowired
    LaneLimit laneLimit;

    /** The name of the server's session cookie. */
    abstract String sessionCookie();

    @Test
    void oneConnectionCarriesTheSessionsChannelAndTheLobbysEachInItsOrder(Browser alice, Browser bob) throws Exception {
        String lobby = "order-" + RUNS.incrementAndGet();
        LanesTab.session(alice); // before the stream: a WebFlux stream's cookie would come with its headers only
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
    void aReconnectResumesEachLaneFromItsOwnPosition(Browser alice) throws Exception {
        String lobby = "resume-" + RUNS.incrementAndGet();
        LanesTab.session(alice);
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
    void aMalformedOrForeignLastEventIdGetsEveryLaneASnapshot(Browser alice) throws Exception {
        String lobby = "garbage-" + RUNS.incrementAndGet();
        LanesTab.session(alice);
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
    void aLobbyClosingEndsOnlyItsLane(Browser alice) throws Exception {
        String lobby = "closing-" + RUNS.incrementAndGet();
        LanesTab.session(alice);
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
    void aStalledTabsLanesKeepTheirBoundedBuffersAndHoldNoOtherTabNorItsSessionNorAThread(Browser stalledUser,
            Browser bob) throws Exception {
        String lobby = "stalled-" + RUNS.incrementAndGet();
        LanesTab.session(stalledUser);
        try (StalledSocket stalled = LanesTab.stalled(port, stalledUser, sessionCookie(), lobby);
                SseClient healthy = LanesTab.open(bob, null, lobby)) {
            await().atMost(WAIT).until(() -> healthy.events.size() == 2);
            await().atMost(WAIT).until(() -> subscribers(bob, lobby).size() == 2 && mine(stalledUser).size() == 1);
            int lines = LanesTab.floodUntilADrop(bob, lobby, healthy, 2);
            List<LaneEvent> got = LaneEvent.of(LaneEvent.all(healthy.events), "lobby:" + lobby);
            assertThat(got.subList(1, got.size())).extracting(LaneEvent::sequence).as("the healthy tab: every line")
                    .containsExactlyElementsOf(LongStream.rangeClosed(1, lines).boxed().toList());
            List<long[]> lobbySubscribers = subscribers(bob, lobby);
            assertThat(lobbySubscribers).as("the stalled tab's lobby lane: within its bound, dropping; the healthy"
                    + " tab's: nothing dropped").satisfiesExactlyInAnyOrder(
                    s -> {
                        assertThat(s[0]).isLessThanOrEqualTo(32);
                        assertThat(s[2]).isGreaterThan(0);
                    },
                    s -> assertThat(s[2]).isZero());
            System.out.printf("%s, stalled tab: %d lines said; lobby lanes (buffered, written, dropped): %s%n",
                    getClass().getSimpleName(), lines, LanesTab.show(lobbySubscribers));
            long[] before = mine(stalledUser).get(0);
            for (int i = 0; i < 5; i++) {
                // Answered: the stalled tab holds nothing of its session's context. Each note is as large as a
                // lobby line, so that no stream can flush one into a window its peer reopens by a few bytes.
                note(stalledUser, "n" + i, 16_384);
            }
            long[] after = mine(stalledUser).get(0);
            // The peer's kernel may reopen its receive window by a few bytes (it collapses its queue): the stream
            // then flushes the tail it held and takes one more message, never a 16 KB note after it.
            assertThat(after[1] - before[1]).as("the stalled tab's private lane writes at most one note: the"
                    + " stream's pressure reached it").isLessThanOrEqualTo(1);
            assertThat(after[0] + after[1]).as("its other notes wait in its own buffer, none dropped")
                    .isEqualTo(before[0] + before[1] + 5);
            assertThat(after[2]).as("nothing dropped").isEqualTo(before[2]);
            assertThat(threadsInWrites()).as("no thread waits inside a lane's drain or the shared stream").isEmpty();
        }
    }


    @Test
    void goingAwayIsWrittenOncePerConnectionAndAStalledConnectionIsNotWaitedFor(Browser alice, Browser stalledUser)
            throws Exception {
        String flooded = "away-" + RUNS.incrementAndGet();
        String quiet = "away-quiet-" + RUNS.get();
        LanesTab.session(alice);
        LanesTab.session(stalledUser);
        CompletableFuture<HttpResponse<String>> stream = alice.httpClient().sendAsync(
                alice.request(LanesTab.path(quiet)).header("Accept", "text/event-stream").build(),
                HttpResponse.BodyHandlers.ofString());
        try (StalledSocket stalled = LanesTab.stalled(port, stalledUser, sessionCookie(), flooded);
                SseClient pacer = LanesTab.open(new Browser(port), null, flooded)) {
            await().atMost(WAIT).until(() -> subscribers(alice, quiet).size() == 1 && mine(alice).size() == 1
                    && mine(stalledUser).size() == 1 && subscribers(alice, flooded).size() == 2);
            LanesTab.floodUntilADrop(alice, flooded, pacer, 2); // the stalled stream's response takes nothing more
            List<LiveSubscriber> all = channels.group().subscribers();
            all.forEach(LiveSubscriber::goAway); // what the shutdown drain does, each lane; none waits for a client
            assertThat(all).as("every lane ended, the stalled connection's too").noneMatch(LiveSubscriber::isOpen);
            String body = stream.get(60, TimeUnit.SECONDS).body();
            assertThat(body.split("event:going-away", -1)).as("one going-away for the connection's two lanes:\n" + body)
                    .hasSize(2);
            assertThat(body.strip()).as("the last event").endsWith("event:going-away\ndata:{\"reconnect\":true}");
            assertThat(subscribers(alice, flooded)).as("the room keeps no subscriber of the stalled connection")
                    .isEmpty();
            assertThat(mine(stalledUser)).as("nor the stalled tab's session").isEmpty();
        }
    }


    @Test
    void aStreamOfMoreLanesThanTheCapIsRefusedWith400NamingTheCapAndCounted(Browser user) throws Exception {
        LanesTab.checkTheLaneCap(user, laneLimit, "cap-" + RUNS.incrementAndGet());
    }

    static SseClient tab(Browser user, String lobby, String lastEventId) throws Exception {
        return LanesTab.open(user, lastEventId, lobby);
    }

    /** Threads inside a lane's drain, the shared stream or its output right now (a stalled client would hold them). */
    private static List<String> threadsInWrites() {
        List<String> held = new ArrayList<>();
        Thread.getAllStackTraces().forEach((thread, stack) -> {
            boolean inWrite = Arrays.stream(stack).anyMatch(frame -> frame.getClassName().endsWith("LiveSubscriber")
                    || frame.getClassName().endsWith("SharedStream") || frame.getClassName().endsWith("StreamOutput"));
            if (inWrite) {
                held.add(thread.getName() + " " + Arrays.stream(stack).limit(12).map(Object::toString).toList());
            }
        });
        return held;
    }
}
