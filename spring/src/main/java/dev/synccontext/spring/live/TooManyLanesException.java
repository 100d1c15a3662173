package dev.synccontext.spring.live;

/**
 * A request for an event stream with more lanes than one stream may carry ({@link LaneLimit}). The stream is not
 * started: {@link LiveSse} answers {@code 400 Bad Request} with this message as plain text, and {@link LiveFlux}'s
 * stream fails with it before its first event ({@link TooManyLanesWebExceptionHandler} answers the same
 * {@code 400}). Counted in {@link LaneLimit#refused()}.
 */
public final class TooManyLanesException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int lanes;
    private final int max;

    TooManyLanesException(int lanes, int max) {
        super("An event stream asked for " + lanes + " live lanes; one stream carries at most " + max
                + " (synccontext.live.max-lanes-per-stream): each lane keeps a subscriber buffer of its own, so the"
                + " cap bounds one connection's memory. Open fewer lanes per stream, or raise the property.");
        this.lanes = lanes;
        this.max = max;
    }

    /** How many lanes the request asked for. */
    public int lanes() {
        return lanes;
    }

    /** The most lanes one stream may carry. */
    public int max() {
        return max;
    }
}
