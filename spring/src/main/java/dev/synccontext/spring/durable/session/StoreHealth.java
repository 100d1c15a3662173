package dev.synccontext.spring.durable.session;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * Whether this node reaches its state store, as its own calls found it: reachable until a call throws, reachable
 * again when the next call returns. A refusal (a stale token, a session owned elsewhere) is an answer, so it counts
 * as reachable; only a call that threw (a connection refused, a timeout) counts as a failure. Thread-safe.
 */
public final class StoreHealth {

    /** The last failure, replaced whole so a reader sees one consistent pair. */
    private record Failure(Instant at, String error) {
    }

    private volatile boolean reachable = true;
    private volatile @Nullable Failure lastFailure;
    private final AtomicLong failures = new AtomicLong();

    StoreHealth() {
    }

    /** Whether the last call to the store returned (true before the first call). */
    public boolean reachable() {
        return reachable;
    }

    /** Calls to the store that threw since start. */
    public long failures() {
        return failures.get();
    }

    /** The exception of the last call that threw ({@code "class: message"}), or null if none did. */
    public @Nullable String lastError() {
        Failure f = lastFailure;
        return f == null ? null : f.error();
    }

    /** When the last call that threw failed, or null if none did. */
    public @Nullable Instant lastErrorAt() {
        Failure f = lastFailure;
        return f == null ? null : f.at();
    }

    void succeeded() {
        if (!reachable) {
            reachable = true;
        }
    }

    void failed(RuntimeException error) {
        failures.incrementAndGet();
        lastFailure = new Failure(Instant.now(), error.getClass().getName() + ": " + error.getMessage());
        reachable = false;
    }
}
