package dev.synccontext.spring.live;

import static dev.synccontext.spring.live.LanesTab.mine;
import static dev.synccontext.spring.live.LanesTab.note;
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
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A WebFlux lanes stream under pressure, over real Reactor Netty (as {@link LanesHttpTest} proves it on Tomcat): a
 * tab that stops reading (a raw socket with a 2 KB receive buffer) costs each of its lanes that lane's bounded
 * buffer, under the overflow policy, and holds neither the lobby's other tab nor its own session nor a thread; on
 * shutdown every connection gets one going-away for all its lanes, and a connection that does not read is not
 * waited for. Same settings as {@link LanesFluxTest}, so both share one application.
 */
@SpringBootTest(classes = LanesFluxApp.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = {"spring.main.web-application-type=reactive", "synccontext.live.policy=drop-oldest",
                "synccontext.live.buffer-capacity=32", "synccontext.live.replay-capacity=16",
                "synccontext.live.max-lanes-per-stream=3", "server.shutdown=immediate"})
class LanesFluxPressureTest {

    private static final AtomicInteger RUNS = new AtomicInteger();
    private static final Duration WAIT = Duration.ofSeconds(60);

    @LocalServerPort
    int port;

    @Autowired
    LiveChannels channels;

    @Test
    void aStalledTabsLanesKeepTheirBoundedBuffersAndHoldNoOtherTabNorItsSessionNorAThread() throws Exception {
        String lobby = "flux-stalled-" + RUNS.incrementAndGet();
        Browser stalledUser = new Browser(port);
        note(stalledUser, "hello"); // makes its WebSession
        Browser bob = new Browser(port);
        try (StalledSocket stalled = LanesTab.stalled(port, "SESSION", stalledUser.cookie("SESSION"), lobby);
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
            System.out.printf("flux lanes, stalled tab: %d lines said; lobby lanes (buffered, written, dropped): %s%n",
                    lines, LanesTab.show(lobbySubscribers));
            long[] before = mine(stalledUser).get(0);
            for (int i = 0; i < 5; i++) {
                note(stalledUser, "n" + i); // answered: the stalled tab holds nothing of its session's context
            }
            long[] after = mine(stalledUser).get(0);
            assertThat(after[1]).as("the stalled tab's private lane writes nothing: the stream's pressure reached it")
                    .isEqualTo(before[1]);
            assertThat(after[0]).as("its notes wait in its own buffer").isEqualTo(before[0] + 5);
            assertThat(threadsInWrites()).as("no thread waits inside a lane's drain or the shared stream").isEmpty();
        }
    }

    @Test
    void goingAwayIsWrittenOncePerConnectionAndAStalledConnectionIsNotWaitedFor() throws Exception {
        String flooded = "flux-away-" + RUNS.incrementAndGet();
        String quiet = "flux-away-quiet-" + RUNS.get();
        Browser alice = new Browser(port);
        note(alice, "hello");
        Browser stalledUser = new Browser(port);
        note(stalledUser, "hello");
        CompletableFuture<HttpResponse<String>> stream = alice.httpClient().sendAsync(
                alice.request(LanesTab.path(quiet)).header("Accept", "text/event-stream").build(),
                HttpResponse.BodyHandlers.ofString());
        try (StalledSocket stalled = LanesTab.stalled(port, "SESSION", stalledUser.cookie("SESSION"), flooded);
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
