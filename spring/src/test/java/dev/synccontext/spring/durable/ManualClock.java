package dev.synccontext.spring.durable;

import dev.synccontext.ContextClock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/**
 * Time that moves only when the test moves it: all an {@link InMemoryStateStore} reads. The test kit's
 * {@code VirtualClock} does the same and more (timers); this module cannot depend on the test kit.
 */
final class ManualClock implements ContextClock {

    private volatile long now;

    void advance(Duration duration) {
        now += duration.toNanos();
    }

    @Override
    public long nanoTime() {
        return now;
    }

    @Override
    public Future<?> schedule(Runnable task, Duration delay) {
        throw new UnsupportedOperationException("the store sets no timers");
    }

    @Override
    public boolean await(CompletableFuture<?> done, long timeoutNanos) {
        throw new UnsupportedOperationException("the store never waits");
    }
}
