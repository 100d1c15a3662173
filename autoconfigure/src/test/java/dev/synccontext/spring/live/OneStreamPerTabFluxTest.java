package dev.synccontext.spring.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.SseClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@link OneStreamPerTabHttpTest} on WebFlux over real Reactor Netty: one {@link LiveFlux} stream per tab for the
 * session's own events and every room it joined ({@link AuctionApp}'s bidder and rooms, behind a WebFlux
 * controller): the tab tells the rooms apart by the event name, each room's bids arrive in its order with no gap,
 * interleaved with the session's own events as they were published, and a reconnect with {@code Last-Event-ID}
 * resumes all of them at once, with exactly what it missed.
 */
@SpringBootTest(classes = OneStreamPerTabFluxTest.App.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = {"spring.main.web-application-type=reactive", "synccontext.live.policy=disconnect",
                "synccontext.live.buffer-capacity=256", "synccontext.live.replay-capacity=256",
                "server.shutdown=immediate"})
class OneStreamPerTabFluxTest {

    private static final AtomicInteger RUNS = new AtomicInteger();
    private static final Duration WAIT = Duration.ofSeconds(60);

    @LocalServerPort
    int port;

    @Test
    void aTabsOneStreamCarriesItsSessionsEventsAndTwoRoomsInOrderAndResumesThemAll() throws Exception {
        String a = "flux-a-" + RUNS.incrementAndGet();
        String b = "flux-b-" + RUNS.get();
        Browser alice = new Browser(port);
        Browser bob = new Browser(port);
        for (Browser user : List.of(alice, bob)) {
            join(user, a);
            join(user, b);
        }
        List<SseClient.Event> events;
        String lastSeen;
        long lastSequence;
        try (SseClient tab = new SseClient(alice.httpClient(), alice.uri("/auction/events"), null, null)) {
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
        try (SseClient back = new SseClient(alice.httpClient(), alice.uri("/auction/events"), null, lastSeen)) {
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

    /** {@link AuctionApp}'s session bidder and rooms on WebFlux: the handlers post to the session's context. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({AuctionApp.Bidder.class, AuctionApp.Auctions.class, App.FluxBidding.class})
    static class App {

        @RestController
        static class FluxBidding {

            private final AuctionApp.Auctions auctions;
            private final AuctionApp.Bidder bidder;
            private final LiveFlux live;

            FluxBidding(AuctionApp.Auctions auctions, AuctionApp.Bidder bidder, LiveFlux live) {
                this.auctions = auctions;
                this.bidder = bidder;
                this.live = live;
            }

            /** Joins on the session's context (the room joins that context's own channel). */
            @PostMapping("/auction/{id}/join")
            Mono<String> join(RendererSyncContext context, @PathVariable String id) {
                return Mono.fromFuture(() -> context.invokeAsync(() -> auctions.join(id))
                        .thenCompose(joined -> joined));
            }

            @PostMapping("/auction/{id}/bid")
            Mono<String> bid(RendererSyncContext context, @PathVariable String id, @RequestParam int raise) {
                return Mono.fromFuture(() -> context.invokeAsync(() -> auctions.bid(id, raise, "ask"))
                        .thenCompose(answer -> answer));
            }

            /** A message of the session's own on its live channel, between the rooms' bids. */
            @PostMapping("/auction/note")
            Mono<Void> note(RendererSyncContext context, @RequestParam String text) {
                return Mono.fromFuture(() -> context.invokeAsync(() -> bidder.live().publish("note", text)));
            }

            /** The tab's one stream: the session's own channel, which its rooms publish into. */
            @GetMapping(path = "/auction/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
            Flux<ServerSentEvent<String>> events(ServerWebExchange exchange, RendererSyncContext context) {
                return live.subscribe(exchange, context, bidder::live);
            }
        }
    }
}
