package dev.synccontext.bench.capacity.load;

import java.util.ArrayDeque;

/**
 * One tab's clicks awaiting their updates, and the check that each update arrives once, in the order its
 * click was sent, carrying that click's nonce. Clicks of one tab are sent one after another over HTTP, and
 * the server answers them on the session's context in arrival order, so an update whose nonce is not the
 * oldest click still waiting is a reordering, a duplicate or a stranger: each is reported, never skipped.
 */
final class NonceOrder {

    /** What an update's nonce turned out to be. */
    enum Verdict { IN_ORDER, OUT_OF_ORDER, UNKNOWN }

    private final ArrayDeque<long[]> waiting = new ArrayDeque<>(4);
    private long lastLatencyNanos;

    /** A click with {@code nonce} was due at {@code dueNanos} and is on its way. */
    void sent(long nonce, long dueNanos) {
        waiting.addLast(new long[] {nonce, dueNanos});
    }

    /**
     * An update carrying {@code nonce} arrived at {@code nowNanos}. In order, the click leaves the waiting
     * list and {@link #lastLatencyNanos()} gives its latency; out of order, the clicks before it are dropped
     * (they are reported by the caller as lost), so one fault is not counted again at every later update.
     */
    Verdict received(long nonce, long nowNanos) {
        long[] head = waiting.peekFirst();
        if (head != null && head[0] == nonce) {
            waiting.removeFirst();
            lastLatencyNanos = nowNanos - head[1];
            return Verdict.IN_ORDER;
        }
        for (long[] click : waiting) {
            if (click[0] == nonce) {
                while (waiting.removeFirst()[0] != nonce) {
                    // drop the clicks this update overtook
                }
                lastLatencyNanos = nowNanos - click[1];
                return Verdict.OUT_OF_ORDER;
            }
        }
        return Verdict.UNKNOWN;
    }

    long lastLatencyNanos() {
        return lastLatencyNanos;
    }

    /** Clicks still waiting for their update. */
    int waiting() {
        return waiting.size();
    }

    /** When the oldest waiting click was due, or {@code Long.MAX_VALUE} when none waits. */
    long oldestDueNanos() {
        long[] head = waiting.peekFirst();
        return head == null ? Long.MAX_VALUE : head[1];
    }

    /** The nonce of the newest waiting click, or {@code 0} when none waits. */
    long newestNonce() {
        long[] tail = waiting.peekLast();
        return tail == null ? 0 : tail[0];
    }

    /** When the newest waiting click was due, or {@code Long.MAX_VALUE} when none waits. */
    long newestDueNanos() {
        long[] tail = waiting.peekLast();
        return tail == null ? Long.MAX_VALUE : tail[1];
    }

    /** Forgets the waiting clicks (their tab is gone) and says how many there were. */
    int clear() {
        int count = waiting.size();
        waiting.clear();
        return count;
    }
}
