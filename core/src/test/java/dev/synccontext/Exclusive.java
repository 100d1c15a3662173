package dev.synccontext;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/** Calls that prove a context never runs two callbacks at once, for tests that count who is inside. */
final class Exclusive {

    private Exclusive() {
    }

    /**
     * Calls {@code ctx} once from outside and waits; its callback counts itself in and out of {@code inside}
     * and notes a violation if another callback was inside with it.
     */
    static void invokeAndCheckAlone(RendererSyncContext ctx, AtomicInteger inside, AtomicReference<String> violation) {
        ctx.invokeAsync(() -> {
            if (inside.incrementAndGet() != 1) {
                violation.compareAndSet(null, "an invokeAsync callback ran beside another");
            }
            inside.decrementAndGet();
        }).join();
    }
}
