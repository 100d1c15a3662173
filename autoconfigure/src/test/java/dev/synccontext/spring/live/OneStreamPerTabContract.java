package dev.synccontext.spring.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.testing.Browser;
import dev.synccontext.testing.SseClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * What one event stream per tab promises on either web stack, over real HTTP ({@link AuctionApp}'s bidder and
 * rooms: each room publishes its bids into the member's own channel, as events named after the room's key): the
 * stream opens with the snapshot; the tab tells the rooms apart by the event name, each room's bids arrive in its
 * order with no gap, interleaved with the session's own events as they were published; and a reconnect with
 * {@code Last-Event-ID} resumes all of them at once, with exactly what it missed. Each stack's test supplies the
 * application ({@code /auction/{id}/join}, {@code /auction/{id}/bid}, {@code /auction/note}, {@code /auction/events}).
 */
abstract class OneStreamPerTabContract {

    private static final AtomicInteger RUNS = new AtomicInteger();
    private static final Duration WAIT = Duration.ofSeconds(60);

    /** The session cookie the stream's request carries itself, or null when the browser's cookies are enough. */
    abstract @Nullable String sessionCookie(Browser browser);

    @Test
    void aTabsOneStreamCarriesItsSessionsEventsAndTwoRoomsInOrderAndResumesThemAll(Browser alice, Browser bob)
            throws Exception {
        String a = "tab-a-" + RUNS.incrementAndGet();
        String b = "tab-b-" + RUNS.get();
        for (Browser user : List.of(alice, bob)) {
            join(user, a);
            join(user, b);
        }
        List<SseClient.Event> events;
        String lastSeen;
        long lastSequence;
        try (SseClient tab = new SseClient(alice.httpClient(), alice.uri("/auction/events"), sessionCookie(alice),
                null)) {
            await().atMost(WAIT).until(() -> !tab.events.isEmpty());
            assertThat(tab.events.get(0).event()).isEqualTo("snapshot");
            for (int i = 0; i < 10; i++) {
                bid(alice, a);
                bid(bob, a);
                bid(alice, b);
                bid(bob, b);
                note(alice, "n" + i);
            }
            await().atMost(WAIT).until(() -> tab.events.size() == 1 + 40 + 10);
            events = List.copyOf(tab.events.subList(1, tab.events.size()));
            lastSeen = tab.last().id();
            lastSequence = tab.last().sequence();
        }
        assertThat(events.stream().map(SseClient.Event::event).toList().subList(0, 5)).as("which channel each says")
                .containsExactly("auction:" + a, "auction:" + a, "auction:" + b, "auction:" + b, "note");
        assertThat(seqs(events, "auction:" + a)).as("room a's bids, in its order, no gap")
                .containsExactlyElementsOf(IntStream.range(0, 20).boxed().toList());
        assertThat(seqs(events, "auction:" + b)).as("room b's bids, in its order, no gap")
                .containsExactlyElementsOf(IntStream.range(0, 20).boxed().toList());
        assertThat(events.stream().filter(e -> e.event().equals("note")).map(SseClient.Event::data).toList())
                .containsExactlyElementsOf(IntStream.range(0, 10).mapToObj(i -> "\"n" + i + "\"").toList());

        bid(alice, a); // while the tab is away: one bid of each room and a note of its own
        bid(alice, b);
        note(alice, "away");
        try (SseClient back = new SseClient(alice.httpClient(), alice.uri("/auction/events"), sessionCookie(alice),
                lastSeen)) {
            await().atMost(WAIT).until(() -> back.events.size() >= 3);
            assertThat(back.events).as("what it missed, of all three, in order, nothing before").extracting(
                    SseClient.Event::event).containsExactly("auction:" + a, "auction:" + b, "note");
            assertThat(back.events.get(0).data()).startsWith("\"20,");
            assertThat(back.events.get(1).data()).startsWith("\"20,");
            assertThat(back.events.get(2).data()).isEqualTo("\"away\"");
            assertThat(back.sequences()).containsExactly(lastSequence + 1, lastSequence + 2, lastSequence + 3);
        }
    }

    private static void join(Browser user, String auction) {
        HttpResponse<String> answer = user.post("/auction/" + auction + "/join");
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    }

    private static void bid(Browser user, String auction) {
        HttpResponse<String> answer = user.post("/auction/" + auction + "/bid?raise=1");
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
        assertThat(answer.body()).as("accepted").isNotEqualTo("refused");
    }

    private static void note(Browser user, String text) {
        assertThat(user.post("/auction/note?text=" + text).statusCode()).isEqualTo(200);
    }

    private static List<Integer> seqs(List<SseClient.Event> events, String room) {
        return events.stream().filter(e -> e.event().equals(room))
                .map(e -> Integer.valueOf(e.data().substring(1, e.data().indexOf(',')))).toList();
    }
}
