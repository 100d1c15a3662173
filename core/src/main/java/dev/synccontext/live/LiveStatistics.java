package dev.synccontext.live;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The counters of every live channel of one scope ({@code session}, {@code websocket}, ...), aggregated:
 * never one set per session. Exact counts, updated by the channels and their subscribers; read by the
 * Micrometer binder ({@code dev.synccontext.micrometer.LiveChannelMetrics}) or directly. Thread-safe.
 */
public final class LiveStatistics {

    private final String scope;
    private final AtomicLong subscribers = new AtomicLong();
    private final AtomicLong buffered = new AtomicLong();
    private final LongAdder published = new LongAdder();
    private final LongAdder written = new LongAdder();
    private final LongAdder droppedOldest = new LongAdder();
    private final LongAdder coalesced = new LongAdder();
    private final LongAdder slowDisconnects = new LongAdder();
    private final LongAdder resumed = new LongAdder();
    private final LongAdder snapshots = new LongAdder();

    public LiveStatistics(String scope) {
        this.scope = Objects.requireNonNull(scope, "scope");
    }

    /** The scope tag of every meter. */
    public String scope() {
        return scope;
    }

    /** Open subscribers now. */
    public long subscribers() {
        return subscribers.get();
    }

    /** Messages buffered and not yet written, over all open subscribers now. */
    public long buffered() {
        return buffered.get();
    }

    /** Messages published to channels (each counted once, whatever its number of subscribers). */
    public long published() {
        return published.sum();
    }

    /** Messages handed to a transport (one per subscriber it reached; snapshots and replays included). */
    public long written() {
        return written.sum();
    }

    /**
     * Messages a policy discarded from a buffer: by {@link OverflowPolicy#DROP_OLDEST} (and the fallback of
     * {@link OverflowPolicy#COALESCE_BY_KEY}) for {@code DROP_OLDEST}, by replacing a buffered message of the
     * same key for {@code COALESCE_BY_KEY}; always 0 for {@code DISCONNECT}, which discards nothing.
     */
    public long dropped(OverflowPolicy policy) {
        return switch (policy) {
            case DROP_OLDEST -> droppedOldest.sum();
            case COALESCE_BY_KEY -> coalesced.sum();
            case DISCONNECT -> 0;
        };
    }

    /**
     * Subscribers disconnected because their buffer overflowed under {@link OverflowPolicy#DISCONNECT}, or
     * because their transport's own bound gave up on them ({@link LiveSubscriber#tooSlow()}).
     */
    public long slowDisconnects() {
        return slowDisconnects.sum();
    }

    /** Reconnects served from the replay buffer. */
    public long resumed() {
        return resumed.sum();
    }

    /** Snapshots sent: to new subscribers and to reconnects the replay buffer could not serve. */
    public long snapshots() {
        return snapshots.sum();
    }

    void subscribed() {
        subscribers.incrementAndGet();
    }

    void unsubscribed() {
        subscribers.decrementAndGet();
    }

    void buffered(long delta) {
        buffered.addAndGet(delta);
    }

    void countPublished() {
        published.increment();
    }

    void countWritten() {
        written.increment();
    }

    void droppedOldest() {
        droppedOldest.increment();
    }

    void coalesced() {
        coalesced.increment();
    }

    void slowDisconnect() {
        slowDisconnects.increment();
    }

    void resume(boolean replayed) {
        (replayed ? resumed : snapshots).increment();
    }
}
