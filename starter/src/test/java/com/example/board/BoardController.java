package com.example.board;

import dev.synccontext.RendererSyncContext;
import java.util.concurrent.CompletableFuture;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
public class BoardController {

    private final RendererSyncContext context; // this session's context (a scoped proxy)
    private final ObjectProvider<Board> boards; // this session's board

    public BoardController(RendererSyncContext context, ObjectProvider<Board> boards) {
        this.context = context;
        this.boards = boards;
    }

    @PostMapping("/board/increment")
    public CompletableFuture<Integer> increment() {
        Board board = boards.getObject(); // looked up on the request thread, where the session is
        // Inline when the session is idle, queued behind its other work when not: never two at once.
        return context.invokeAsync(board::increment);
    }

    @GetMapping("/board/count")
    public CompletableFuture<Integer> count() {
        Board board = boards.getObject();
        return context.invokeAsync(board::count);
    }
}
