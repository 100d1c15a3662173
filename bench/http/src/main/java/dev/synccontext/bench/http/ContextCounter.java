package dev.synccontext.bench.http;

import dev.synccontext.spring.scope.ContextScoped;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * The fourth way's per-session counter: a {@code @ContextScoped} bean, one per session's context, a plain
 * field touched only by {@code @OnContext} handler bodies. Every instance is also kept in {@link #ALL}, for
 * the audit only (the run's sanity check; never read during the load).
 */
@Component
@ContextScoped
class ContextCounter {

    static final Set<ContextCounter> ALL = ConcurrentHashMap.newKeySet();

    private int count;

    ContextCounter() {
        ALL.add(this);
    }

    int increment() {
        return ++count;
    }

    int count() {
        return count;
    }
}
