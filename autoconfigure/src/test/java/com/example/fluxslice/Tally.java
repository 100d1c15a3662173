package com.example.fluxslice;

import dev.synccontext.spring.scope.ContextScoped;
import org.springframework.stereotype.Component;

/** One per WebSession's context; only that context's callbacks touch it. */
@Component
@ContextScoped
public class Tally {

    private int count;

    public int increment() {
        return ++count;
    }
}
