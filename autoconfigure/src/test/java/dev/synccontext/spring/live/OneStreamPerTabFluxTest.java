package dev.synccontext.spring.live;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
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
 * {@link OneStreamPerTabContract} on WebFlux over real Reactor Netty: one {@link LiveFlux} stream per tab for the
 * session's own events and every room it joined ({@link AuctionApp}'s bidder and rooms, behind a WebFlux
 * controller).
 */
@OnRandomPort(classes = OneStreamPerTabFluxTest.App.class,
        properties = {"spring.main.web-application-type=reactive", "synccontext.live.policy=disconnect",
                "synccontext.live.buffer-capacity=256", "synccontext.live.replay-capacity=256",
                "server.shutdown=immediate"})
class OneStreamPerTabFluxTest extends OneStreamPerTabContract {

    /** The browser's cookie jar carries the WebSession's cookie. */
    @Override
    @Nullable String sessionCookie(Browser browser) {
        return null;
    }

    /** {@link AuctionApp}'s session bidder and rooms on WebFlux: the handlers post to the session's context. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({AuctionApp.Bidder.class, AuctionApp.Auctions.class, App.FluxBidding.class})
    static class App {

        @RestController
        record FluxBidding(AuctionApp.Auctions auctions, AuctionApp.Bidder bidder, LiveFlux live) {

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
