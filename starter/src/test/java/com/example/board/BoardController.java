package com.example.board;

import dev.synccontext.spring.handler.OnContext;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@OnContext // every handler's body runs on its session's context: one at a time, in order
public class BoardController {

    private final Board board; // this session's board (a proxy)

    public BoardController(Board board) {
        this.board = board;
    }

    @PostMapping("/board/increment")
    public int increment() {
        return board.increment(); // inline when the session is idle, queued behind its other work when not
    }

    @GetMapping("/board/count")
    public int count() {
        return board.count();
    }
}
