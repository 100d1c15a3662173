package dev.synccontext.cluster;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.durable.session.DurableContexts;
import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.spring.live.LiveFlux;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The WebFlux counterpart of {@link DurableClusterApp}'s counter and board, as a user writes them on WebFlux: the same
 * {@code @Durable} {@link DurableClusterApp.Counter} and node-local {@link DurableBoard} behind annotated
 * {@code @OnContext} handlers, on reactive Spring Session Data Redis and the auto-configured Redis state store; the
 * board's stream through {@link LiveFlux}. Started with {@code spring.main.web-application-type=reactive}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({ DurableClusterApp.Counter.class, DurableBoard.class, DurableFluxClusterApp.CounterHandlers.class })
public class DurableFluxClusterApp {

    public static void main(String[] args) {
        SpringApplication.run(DurableFluxClusterApp.class, args);
    }

    @RestController
    static class CounterHandlers {

        private final DurableClusterApp.Counter counter;
        private final DurableBoard board;
        private final LiveFlux live;
        private final DurableContexts durable;
        private final String node;

        CounterHandlers(DurableClusterApp.Counter counter, DurableBoard board, LiveFlux live, DurableContexts durable,
                Environment environment) {
            this.counter = counter;
            this.board = board;
            this.live = live;
            this.durable = durable;
            this.node = environment.getProperty("synccontext.session.node-id", "?");
        }

        @OnContext
        @PostMapping("/durable/board/increment")
        Mono<String> increment() { // the method's body runs on the WebSession's context, the Mono's later off it
            counter.setCount(counter.getCount() + 1);
            board.changed();
            return Mono.just(String.valueOf(counter.getCount()));
        }

        @GetMapping(path = Nginx.EVENT_STREAMS, produces = MediaType.TEXT_EVENT_STREAM_VALUE)
        Flux<ServerSentEvent<String>> events(ServerWebExchange exchange, RendererSyncContext context) {
            return live.subscribe(exchange, context, board::live);
        }

        @GetMapping("/durable/stats")
        Map<String, Object> stats() {
            return DurableClusterApp.counters(node, durable.counters());
        }
    }
}
