package com.example.board;

import dev.synccontext.spring.scope.ContextScoped;
import org.springframework.stereotype.Component;

/** One per session's context. Only that context's callbacks touch it, one at a time: no lock. */
@Component
@ContextScoped
public class Board {

    private int count;

    public int increment() {
        return ++count;
    }

    public int count() {
        return count;
    }
}
