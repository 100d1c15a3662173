package com.example.board;

import dev.synccontext.RendererSyncContext;
import java.util.concurrent.CompletableFuture;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
public class BoardController {

    private final RendererSyncContext context; // this session's context (a proxy)
    private final Board board; // this context's board (a proxy)

    public BoardController(RendererSyncContext context, Board board) {
        this.context = context;
        this.board = board;
    }

    @PostMapping("/board/increment")
    public CompletableFuture<Integer> increment() {
        // Inline when the session is idle, queued behind its other work when not: never two at once.
        return context.invokeAsync(board::increment);
    }

    @GetMapping("/board/count")
    public CompletableFuture<Integer> count() {
        return context.invokeAsync(board::count);
    }
}
