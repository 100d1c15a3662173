package dev.synccontext.spring.live;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.scope.ContextScoped;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The application of the WebFlux live-channel tests (run with {@code spring.main.web-application-type=reactive},
 * on Reactor Netty): a {@code @ContextScoped} board per {@code WebSession} that pushes each change to its tabs
 * through {@link LiveFlux}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({LiveFluxBoardApp.Board.class, LiveFluxBoardApp.BoardController.class, LiveFluxBoardApp.Boards.class})
class LiveFluxBoardApp {

    /** What one change publishes (and the snapshot): immutable, encoded later on a drain thread. */
    record State(long counter, String pad) {
    }

    /** Every board, so that tests can look at the server side of each subscriber. */
    @Component
    static class Boards {
        final List<Board> all = new CopyOnWriteArrayList<>();
    }

    @Component
    @ContextScoped
    static class Board extends CountingBoard {

        Board(LiveChannels channels, Boards boards) {
            super(channels, "");
            boards.all.add(this);
        }

        @Override
        protected State state() {
            return new State(counter, pad);
        }
    }

    @RestController
    record BoardController(Board board, LiveFlux live) {

        @PostMapping("/change")
        Mono<Long> change(RendererSyncContext context, @RequestParam(defaultValue = "1") int times,
                @RequestParam(defaultValue = "0") int size) {
            return Mono.fromFuture(() -> context.invokeAsync(() -> board.change(times, size)));
        }

        @GetMapping(path = "/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
        Flux<ServerSentEvent<String>> events(ServerWebExchange exchange, RendererSyncContext context,
                @RequestParam(defaultValue = "") String tab) {
            return live.subscribe(exchange, context, board::live, subscriber -> board.tab(tab, subscriber));
        }
    }
}
