package dev.synccontext.spring.durable.session;

import dev.synccontext.ContextClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * Whether this node reaches its state store, as its own calls found it: every store call of the durable layer
 * (acquire, restore, snapshot write, release, lease renewal) reports its outcome here. For a health indicator and
 * the endpoint; reading it costs no store call.
 *
 * <p>What a node does while its store is down: sessions it owns keep running on their contexts (a callback needs no
 * store call); snapshot writes are kept, newest bytes only, and retried with a backoff from the debounce doubling
 * up to {@link #MAX_RETRY_DELAY}; a session that is not owned here yet is answered 503 with {@code Retry-After};
 * when the node lease's local deadline passes without a renewal, the node's durable callbacks are answered 503
 * too, since it can no longer know that it owns them.
 */
public final class StoreHealth {

    /** The longest wait between two attempts to write a snapshot the store did not take. */
    public static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(5);

    /**
     * How the store looked at the last call.
     *
     * @param reachable           whether the last store call succeeded (true before the first one)
     * @param consecutiveFailures store calls that failed since the last success
     * @param failures            store calls that failed since start
     * @param lastFailure         the last failure's message, null if none
     * @param lastSuccessNanos    when the last call succeeded, on the registry's clock ({@link ContextClock#nanoTime})
     */
    public record Status(boolean reachable, long consecutiveFailures, long failures, @Nullable String lastFailure,
            long lastSuccessNanos) {
    }

    private final ContextClock clock;
    private final AtomicLong failures = new AtomicLong();
    private volatile Status status;
    private volatile @Nullable Instant lastFailureAt;

    StoreHealth(ContextClock clock) {
        this.clock = clock;
        this.status = new Status(true, 0, 0, null, clock.nanoTime());
    }

    /** The store's status as this node's last call found it. */
    public Status status() {
        return status;
    }

    /** Whether the last call to the store returned (true before the first call). */
    public boolean reachable() {
        return status.reachable();
    }

    /** Calls to the store that threw since start. */
    public long failures() {
        return failures.get();
    }

    /** The exception of the last call that threw, or null if none did. */
    public @Nullable String lastError() {
        return status.lastFailure();
    }

    /** When the last call that threw failed (wall clock, for display), or null if none did. */
    public @Nullable Instant lastErrorAt() {
        return lastFailureAt;
    }

    synchronized void succeeded() {
        status = new Status(true, 0, failures.get(), status.lastFailure(), clock.nanoTime());
    }

    synchronized void failed(RuntimeException failure) {
        Status now = status;
        lastFailureAt = Instant.now();
        status = new Status(false, now.consecutiveFailures() + 1, failures.incrementAndGet(), String.valueOf(failure),
                now.lastSuccessNanos());
    }

    /** The wait before retry {@code attempt} (1, 2, ...): {@code first} doubled each time, at most the maximum. */
    static Duration retryDelay(int attempt, Duration first) {
        Duration base = first.compareTo(Duration.ofMillis(50)) < 0 ? Duration.ofMillis(50) : first;
        Duration delay = base.multipliedBy(1L << Math.min(attempt - 1, 16));
        return delay.compareTo(MAX_RETRY_DELAY) > 0 ? MAX_RETRY_DELAY : delay;
    }
}
