package dev.synccontext.spring.mvc;

import dev.synccontext.RendererSyncContext;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Holds a context busy from a pool thread until released: {@link #hold} posts a callback that records its context
 * in {@link #held}, counts {@link #holding} down and waits for {@link #release} (30 seconds at most, so that a
 * failed test never leaves the context held). {@link #reset()} readies it for the next hold.
 */
public class ContextHold {

    public final AtomicReference<RendererSyncContext> held = new AtomicReference<>();
    public volatile CountDownLatch holding = new CountDownLatch(1);
    public volatile CountDownLatch release = new CountDownLatch(1);

    public void reset() {
        holding = new CountDownLatch(1);
        release = new CountDownLatch(1);
        held.set(null);
    }

    public void hold(RendererSyncContext context) {
        CountDownLatch holdingNow = holding;
        CountDownLatch releaseNow = release;
        context.post(() -> {
            held.set(RendererSyncContext.current().orElseThrow());
            holdingNow.countDown();
            try {
                releaseNow.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }
}
