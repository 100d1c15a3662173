package com.example.liveflux;

import com.example.live.Board;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.live.LiveFlux;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

@RestController
public class BoardStream {

    private final Board board; // the same @ContextScoped board: here one per WebSession
    private final LiveFlux live;

    public BoardStream(Board board, LiveFlux live) {
        this.board = board;
        this.live = live;
    }

    @PostMapping("/board/increment")
    public Mono<Board.State> increment(RendererSyncContext context) { // the WebSession's context
        return Mono.fromFuture(() -> context.invokeAsync(board::increment));
    }

    @GetMapping(path = "/board/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    public Flux<ServerSentEvent<String>> events(ServerWebExchange exchange, RendererSyncContext context) {
        return live.subscribe(exchange, context, board::live); // a snapshot (or resume), then every change
    }
}
