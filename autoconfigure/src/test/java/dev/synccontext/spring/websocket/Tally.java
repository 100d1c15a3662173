package dev.synccontext.spring.websocket;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
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

    /**
     * Checks that one context, a WebSocket session's, ran every increment, none overlapping another, and that the
     * count on it is {@code expected}; answers that context.
     */
    RendererSyncContext assertExactOnOneContext(int expected) throws Exception {
        RendererSyncContext context = onlyContext();
        assertThat(context.name()).startsWith("websocket-");
        assertThat(countOn(context)).as("the session's count").isEqualTo(expected);
        assertThat(overlaps).as("increments that overlapped another").hasValue(0);
        assertThat(offContext).as("increments outside the session's context").hasValue(0);
        return context;
    }

    /**
     * Checks {@link #assertExactOnOneContext} for the tallies of sessions that sent at the same time, each
     * {@code expected}, and that no two of them shared a context.
     */
    static void assertEachExactOnAContextOfItsOwn(List<Tally> tallies, int expected) throws Exception {
        Set<RendererSyncContext> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Tally tally : tallies) {
            distinct.add(tally.assertExactOnOneContext(expected));
        }
        assertThat(distinct).as("two WebSocket sessions never share a context").hasSize(tallies.size());
    }

    /** The one context that ran every increment. */
    RendererSyncContext onlyContext() {
        if (contexts.size() != 1) {
            throw new AssertionError("expected one context for the session, saw " + contexts);
        }
        return contexts.iterator().next();
    }
}
