package com.example.live;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.spring.live.LiveSse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
public class BoardController {

    private final Board board;
    private final RendererSyncContext context;
    private final LiveSse sse;

    public BoardController(Board board, RendererSyncContext context, LiveSse sse) {
        this.board = board;
        this.context = context;
        this.sse = sse;
    }

    @OnContext // the body runs on the session's context
    @PostMapping("/board/increment")
    public Board.State increment() {
        return board.increment();
    }

    /** Not @OnContext: the stream starts on the request's thread; the subscription runs on the context. */
    @GetMapping(path = "/board/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    public void events(HttpServletRequest request, HttpServletResponse response) {
        sse.subscribe(request, response, context, board::live); // a snapshot (or resume), then every change
    }
}
