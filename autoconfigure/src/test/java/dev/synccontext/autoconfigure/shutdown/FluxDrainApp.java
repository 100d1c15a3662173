package dev.synccontext.autoconfigure.shutdown;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.registry.ShutdownDrain;
import dev.synccontext.spring.live.LiveFlux;
import dev.synccontext.spring.shutdown.ShutdownCompletedEvent;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.annotation.Import;
import org.springframework.context.event.EventListener;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;

/**
 * The WebFlux application {@link LiveFluxShutdownProcessTest} starts as a separate JVM (reactive, on Reactor
 * Netty): the servlet drain app's {@code @ContextScoped} board ({@link DrainApp.Board}), here one per
 * {@code WebSession}, streaming over {@link LiveFlux} ({@code GET /events}). Prints (on stdout, prefixed {@value DrainApp#OUT}) its port and server, the readiness
 * change and the drain's report.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({DrainApp.Board.class, FluxDrainApp.Events.class, FluxDrainApp.Printer.class})
public class FluxDrainApp {

    public static void main(String[] args) {
        SpringApplication.run(FluxDrainApp.class, args);
    }

    @RestController
    static class Events {

        private final DrainApp.Board board; // the servlet drain app's board, unchanged
        private final LiveFlux live;

        Events(DrainApp.Board board, LiveFlux live) {
            this.board = board;
            this.live = live;
        }

        @GetMapping(path = "/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
        Flux<ServerSentEvent<String>> events(ServerWebExchange exchange, RendererSyncContext context) {
            return live.subscribe(exchange, context, board::live);
        }
    }

    @Component
    static class Printer {

        @EventListener
        void started(WebServerInitializedEvent event) {
            DrainApp.print("server=" + event.getWebServer().getClass().getSimpleName());
            DrainApp.print("port=" + event.getWebServer().getPort());
        }

        @EventListener
        void readiness(AvailabilityChangeEvent<ReadinessState> event) {
            DrainApp.print("readiness=" + event.getState());
        }

        @EventListener
        void drained(ShutdownCompletedEvent event) {
            ShutdownDrain.Report r = event.report();
            DrainApp.print("report contexts=" + r.contexts() + " forced=" + r.forced() + " goneAway=" + r.goneAway()
                    + " goneAwayAtDeadline=" + r.goneAwayAtDeadline() + " tookMillis=" + r.took().toMillis());
        }
    }
}
