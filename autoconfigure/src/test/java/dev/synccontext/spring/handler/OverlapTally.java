package dev.synccontext.spring.handler;

import dev.synccontext.spring.scope.ContextScoped;
import org.springframework.stereotype.Component;

/**
 * Per-context state of the {@code @OnContext} MVC and WebFlux test applications: plain fields and no lock, so an
 * increment that overlaps another loses an update and raises {@link #maxInside()} above 1. Read through methods
 * (the injected proxy has no state); they are public so that the proxy passes them on from any package.
 */
@Component
@ContextScoped
public class OverlapTally {

    private int count;
    private int inside;
    private int maxInside;

    public int count() {
        return count;
    }

    public void count(int value) {
        count = value;
    }

    public int maxInside() {
        return maxInside;
    }

    /** A read-yield-write increment that loses updates whenever two calls overlap. */
    public int increment() {
        inside++;
        maxInside = Math.max(maxInside, inside);
        int read = count;
        Thread.yield();
        count = read + 1;
        inside--;
        return count;
    }

    /** The count and the most increments that ran at once, as {@code "<count> max-inside <n>"}. */
    public String report() {
        return count + " max-inside " + maxInside;
    }
}
