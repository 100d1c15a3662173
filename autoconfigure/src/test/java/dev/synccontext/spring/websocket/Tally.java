package dev.synccontext.spring.websocket;

import dev.synccontext.RendererSyncContext;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One WebSocket session's state for the end-to-end tests: a plain {@code int} that callbacks increment
 * with a deliberately wide read-modify-write (so a missing serialization loses updates), plus sensors that
 * do not depend on luck: how many increments overlapped another, how many ran outside the context, and
 * which contexts ran them.
 */
final class Tally {

    private int count; // plain on purpose: only the session's context may touch it
    private final AtomicInteger inside = new AtomicInteger();
    final AtomicInteger overlaps = new AtomicInteger();
    final AtomicInteger offContext = new AtomicInteger();
    /** Frames whose handler has handed its increment to the context (or run it). */
    final AtomicInteger handled = new AtomicInteger();
    final Set<RendererSyncContext> contexts = ConcurrentHashMap.newKeySet();

    /** The increment; meant to run inside {@code context}. */
    void increment(RendererSyncContext context) {
        if (inside.incrementAndGet() != 1) {
            overlaps.incrementAndGet();
        }
        if (!context.checkAccess()) {
            offContext.incrementAndGet();
        }
        contexts.add(context);
        int read = count;
        for (int i = 0; i < 200; i++) {
            Thread.onSpinWait(); // widen the window a lost update needs
        }
        count = read + 1;
        inside.decrementAndGet();
    }

    /** The count, read on the context: behind every increment queued before this call. */
    int countOn(RendererSyncContext context) throws Exception {
        return context.invokeAsync(() -> count).get(30, java.util.concurrent.TimeUnit.SECONDS);
    }

    /** The one context that ran every increment. */
    RendererSyncContext onlyContext() {
        if (contexts.size() != 1) {
            throw new AssertionError("expected one context for the session, saw " + contexts);
        }
        return contexts.iterator().next();
    }
}
