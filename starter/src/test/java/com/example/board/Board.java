package com.example.board;

import org.springframework.context.annotation.Scope;
import org.springframework.stereotype.Component;
import org.springframework.web.context.WebApplicationContext;

/** One per HTTP session. Only its session's context touches it, one callback at a time: no lock. */
@Component
@Scope(WebApplicationContext.SCOPE_SESSION)
public class Board {

    private int count;

    public int increment() {
        return ++count;
    }

    public int count() {
        return count;
    }
}
