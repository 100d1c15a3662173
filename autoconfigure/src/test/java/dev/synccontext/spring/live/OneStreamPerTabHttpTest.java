package dev.synccontext.spring.live;

import dev.synccontext.testing.SseClient;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.testing.Browser;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * One SSE connection per tab for the session's own events and every room it joined ({@link AuctionApp}: each
 * room publishes its bids into the member's own channel, as events named after the room's key): the tab tells
 * the rooms apart by the event name, each room's bids arrive in its order with no gap, interleaved with the
 * session's own events as they were published, and a reconnect with {@code Last-Event-ID} resumes all of them
 * at once, with exactly what it missed.
 */
@SpringBootTest(classes = AuctionApp.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "synccontext.live.policy=disconnect", "synccontext.live.buffer-capacity=256",
        "synccontext.live.replay-capacity=256", "server.shutdown=immediate"})
class OneStreamPerTabHttpTest {

    private static final AtomicInteger RUNS = new AtomicInteger();
    private static final Duration WAIT = Duration.ofSeconds(60);

    @LocalServerPort
    int port;

    @Test
    void aTabsOneStreamCarriesItsSessionsEventsAndTwoRoomsInOrderAndResumesThemAll() throws Exception {
        String a = "tab-a-" + RUNS.incrementAndGet();
        String b = "tab-b-" + RUNS.get();
        Browser alice = new Browser(port);
        Browser bob = new Browser(port);
        for (Browser user : List.of(alice, bob)) {
            user.post("/auction/" + a + "/join");
            user.post("/auction/" + b + "/join");
        }
        SseClient tab = new SseClient(alice.httpClient(), alice.uri("/auction/events"), alice.cookie("JSESSIONID"),
                null);
        await().atMost(WAIT).until(() -> !tab.events.isEmpty());
        for (int i = 0; i < 10; i++) {
            bid(alice, a);
            bid(bob, a);
            bid(alice, b);
            bid(bob, b);
            assertThat(alice.post("/auction/note?text=n" + i).statusCode()).isEqualTo(200);
        }
        await().atMost(WAIT).until(() -> tab.events.size() == 1 + 40 + 10);
        List<SseClient.Event> events = tab.events.subList(1, tab.events.size());
        assertThat(events.stream().map(SseClient.Event::event).toList().subList(0, 5)).as("which channel each says")
                .containsExactly("auction:" + a, "auction:" + a, "auction:" + b, "auction:" + b, "note");
        assertThat(seqs(events, "auction:" + a)).as("room a's bids, in its order, no gap")
                .containsExactlyElementsOf(java.util.stream.IntStream.range(0, 20).boxed().toList());
        assertThat(seqs(events, "auction:" + b)).as("room b's bids, in its order, no gap")
                .containsExactlyElementsOf(java.util.stream.IntStream.range(0, 20).boxed().toList());
        assertThat(events.stream().filter(e -> e.event().equals("note")).map(SseClient.Event::data).toList())
                .containsExactlyElementsOf(java.util.stream.IntStream.range(0, 10).mapToObj(i -> "\"n" + i + "\"")
                        .toList());
        String lastSeen = tab.last().id();
        tab.close();

        bid(alice, a); // while the tab is away: one bid of each room and a note of its own
        bid(alice, b);
        assertThat(alice.post("/auction/note?text=away").statusCode()).isEqualTo(200);
        SseClient back = new SseClient(alice.httpClient(), alice.uri("/auction/events"), alice.cookie("JSESSIONID"),
                lastSeen);
        try {
            await().atMost(WAIT).until(() -> back.events.size() >= 3);
            assertThat(back.events).as("what it missed, of all three, in order, nothing before").extracting(
                    SseClient.Event::event).containsExactly("auction:" + a, "auction:" + b, "note");
            assertThat(back.events.get(0).data()).startsWith("\"20,");
            assertThat(back.events.get(1).data()).startsWith("\"20,");
            assertThat(back.sequences().get(0)).isEqualTo(tab.events.get(tab.events.size() - 1).sequence() + 1);
        } finally {
            back.close();
        }
    }

    private static void bid(Browser user, String auction) {
        var answer = user.post("/auction/" + auction + "/bid?raise=1");
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.body()).as("accepted").isNotEqualTo("refused");
    }

    private static List<Integer> seqs(List<SseClient.Event> events, String room) {
        return events.stream().filter(e -> e.event().equals(room))
                .map(e -> Integer.valueOf(e.data().substring(1, e.data().indexOf(',')))).toList();
    }
}
