package dev.synccontext.spring.live;

import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * The most lanes one event stream may carry ({@code synccontext.live.max-lanes-per-stream} in Boot), and how many
 * streams were refused for asking more. Each lane is a subscriber with a buffer of its own (up to
 * {@code buffer-capacity} messages) plus at most two events held on the shared stream, so without a cap one
 * connection could hold any number of buffers: the lanes of a stream come from its request.
 *
 * <p>Shared by {@link LiveSse} and {@link LiveFlux}; thread-safe.
 */
public final class LaneLimit {

    /**
     * The default cap: a tab's stream usually carries its session's channel and the few rooms on its screen. A
     * guess with room to spare, not a measurement: 16 lanes of 64 messages bound a connection to 1,024 buffered
     * messages, the order of one single-channel subscriber with a large buffer.
     */
    public static final int DEFAULT_MAX = 16;

    private final int max;
    private final LongAdder refused = new LongAdder();

    /** @throws IllegalArgumentException {@code max} is less than 1 */
    public LaneLimit(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("The most lanes per event stream must be at least 1, not " + max);
        }
        this.max = max;
    }

    /** The most lanes one stream may carry. */
    public int max() {
        return max;
    }

    /** Streams refused so far for asking more than {@link #max()} lanes. */
    public long refused() {
        return refused.sum();
    }

    /** {@code null} when {@code lanes} fit; else the refusal, counted. */
    @Nullable TooManyLanesException check(int lanes) {
        if (lanes <= max) {
            return null;
        }
        refused.increment();
        return new TooManyLanesException(lanes, max);
    }
}
