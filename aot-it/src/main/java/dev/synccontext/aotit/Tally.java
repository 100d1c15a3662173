package dev.synccontext.aotit;

import dev.synccontext.spring.scope.ContextScoped;
import org.springframework.stereotype.Component;

/**
 * One count per session's context. Unsynchronized on purpose: only the context's serialization keeps
 * {@code count++} exact.
 */
@Component
@ContextScoped
public class Tally {

    private int count;

    public int increment() {
        return ++count;
    }

    public int count() {
        return count;
    }
}
