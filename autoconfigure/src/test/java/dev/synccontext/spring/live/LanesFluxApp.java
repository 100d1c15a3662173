package dev.synccontext.spring.live;

import dev.synccontext.RendererSyncContext;
import java.util.List;
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

/** {@link LanesApp}'s private channel and lobbies behind a WebFlux controller, on the same paths. */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({LanesApp.Me.class, LanesApp.Lobbies.class, LanesFluxApp.FluxLanes.class})
class LanesFluxApp {

    @RestController
    record FluxLanes(LanesApp.Me me, LanesApp.Lobbies lobbies, LiveFlux live) {

        @PostMapping("/lanes/note")
        Mono<Void> note(RendererSyncContext context, @RequestParam String text,
                @RequestParam(defaultValue = "0") int pad) {
            String note = text + "x".repeat(pad); // pad: a large note without a large request
            return Mono.fromFuture(() -> context.invokeAsync(() -> me.live().publish("note", note)));
        }

        @GetMapping("/lanes/me")
        Mono<String> mine(RendererSyncContext context) {
            return Mono.fromFuture(() -> context.invokeAsync(me::subscribers));
        }

        @PostMapping("/lanes/{id}/say")
        Mono<Integer> say(@PathVariable String id, @RequestParam String text,
                @RequestParam(defaultValue = "0") int pad) {
            return Mono.fromFuture(() -> lobbies.say(id, text + "x".repeat(pad)));
        }

        @PostMapping("/lanes/{id}/close")
        Mono<Void> close(@PathVariable String id) {
            return Mono.fromFuture(() -> lobbies.close(id));
        }

        @GetMapping("/lanes/{id}/subscribers")
        Mono<String> subscribers(@PathVariable String id) {
            return Mono.fromFuture(() -> lobbies.subscribers(id));
        }

        /** The tab's one stream: its private channel (on the WebSession's context) and each lobby's. */
        @GetMapping(path = "/lanes/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
        Flux<ServerSentEvent<String>> events(ServerWebExchange exchange, RendererSyncContext context,
                @RequestParam List<String> lobby) {
            return live.subscribe(exchange, lobbies.lanes(LiveLane.of("me", context, me::live), lobby));
        }
    }
}
