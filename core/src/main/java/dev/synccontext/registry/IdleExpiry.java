package dev.synccontext.registry;

import dev.synccontext.ContextClock;
import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * The idle timeout of one keyed context ({@link SyncContextRegistry#forKey(String, Duration)}): a timer on
 * the registry's clock that, when due, looks at the context <em>from inside it</em> (one callback, inline
 * when the context is idle), so nothing of the context runs while it decides. The context expires when no
 * callback of it finished and no {@code forKey} asked for it since the last look, and nothing is queued;
 * otherwise the timer is set again. So a context expires between one and two timeouts after its last use.
 */
final class IdleExpiry implements Runnable {

    private final KeyedContexts keyed;
    private final String key;
    private final RendererSyncContext context;
    private final Duration timeout;
    private final ContextClock clock;
    /** Finished callbacks and {@code forKey} look-ups, counted by {@link KeyedActivity} and the registry. */
    private final AtomicLong uses = new AtomicLong();
    /** {@link #uses} at the last look, plus that look's own callback; read and written on the context only. */
    private long seen;
    private volatile @Nullable Future<?> timer;
    private volatile boolean cancelled;

    IdleExpiry(KeyedContexts keyed, ContextClock clock, String key, RendererSyncContext context, Duration timeout) {
        this.keyed = keyed;
        this.key = key;
        this.context = context;
        this.timeout = timeout;
        this.clock = clock;
    }

    void arm() {
        Future<?> next = clock.schedule(this, timeout);
        timer = next;
        if (cancelled) {
            next.cancel(false); // cancelled while it was being set
        }
    }

    void used() {
        uses.incrementAndGet();
    }

    long uses() {
        return uses.get();
    }

    Duration timeout() {
        return timeout;
    }

    void cancel() {
        cancelled = true;
        Future<?> current = timer;
        if (current != null) {
            current.cancel(false);
        }
    }

    /** On the clock's timer thread. */
    @Override
    public void run() {
        if (cancelled) {
            return;
        }
        CompletableFuture<Void> look = context.invokeAsync(this::lookOnContext);
        look.whenComplete((ignored, refused) -> {
            if (refused == null) {
                return;
            }
            if (context.isClosed()) {
                keyed.forgetClosed(key, context); // closed directly: forKey would replace it anyway
            } else {
                arm(); // full: it is anything but idle
            }
        });
    }

    /** Inside the context: no callback of it runs meanwhile. */
    private void lookOnContext() {
        if (cancelled) {
            return; // removed or released while this look was queued: nothing to keep track of
        }
        long now = uses.get();
        if (now == seen && context.queueDepth() == 0 && keyed.expireIfUnused(key, context, this, now)) {
            return;
        }
        seen = now + 1; // this look's own callback counts as a use when it finishes
        if (!cancelled) {
            arm();
        }
    }

    @Override
    public String toString() {
        return "idle expiry of keyed context '" + key + "' after " + timeout;
    }
}
