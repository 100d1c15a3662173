package dev.synccontext.bench.http;

import dev.synccontext.spring.durable.session.Durable;
import dev.synccontext.spring.scope.ContextScoped;
import org.springframework.stereotype.Component;

/**
 * The {@code durable} way's per-session counter: {@link ContextCounter} made {@link Durable}, so that each change
 * is checkpointed to the state store (the in-memory one here: no Redis on the class path) after the debounce. What
 * the {@code durable} way against the {@code annotated} way measures is the durable layer's cost on the request path.
 */
@Component
@ContextScoped
@Durable(name = "benchCounter")
public class DurableCounter {

    private int count;

    public int getCount() {
        return count;
    }

    public void setCount(int count) {
        this.count = count;
    }

    int increment() {
        return ++count;
    }
}
