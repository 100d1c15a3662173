package dev.synccontext.autoconfigure.live;

import dev.synccontext.live.OverflowPolicy;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** Settings of the live channels ({@code synccontext.live.*}). */
@ConfigurationProperties("synccontext.live")
public class LiveProperties {

    /** What a subscriber's full buffer does with the next message: drop-oldest, coalesce-by-key or disconnect. */
    private OverflowPolicy policy = OverflowPolicy.COALESCE_BY_KEY;

    /** Maximum number of messages buffered per subscriber before the policy applies. */
    private int bufferCapacity = 64;

    /** Maximum number of a channel's last messages kept for reconnects that resume; 0 = always a snapshot. */
    private int replayCapacity = 256;

    /**
     * Whether a publish to an idle subscriber of an event stream (SSE on Servlet or WebFlux, which never block) writes
     * on the publishing thread instead of waiting behind the executor's queue; WebSocket, STOMP and lanes always
     * write on the executor.
     */
    private boolean inlineWrites;

    /** How long an SSE stream (servlet or WebFlux) stays open before it ends (the browser reconnects and resumes). */
    private Duration sseTimeout = Duration.ofMinutes(30);

    /** Maximum time a WebSocket frame (or close frame) may take to go out before the subscriber is ended. */
    private Duration sendTimeout = Duration.ofSeconds(10);

    /**
     * Maximum number of lanes (live channels) one event stream may carry; a request for more is refused with 400.
     */
    private int maxLanesPerStream = 16;

    /**
     * How many subscribers per second are told to go away when the application shuts down, so that their
     * reconnects do not reach the other nodes in one wave; 0 = all at once.
     */
    private int shutdownPace = 500;

    public OverflowPolicy getPolicy() {
        return policy;
    }

    public void setPolicy(OverflowPolicy policy) {
        this.policy = policy;
    }

    public int getBufferCapacity() {
        return bufferCapacity;
    }

    public void setBufferCapacity(int bufferCapacity) {
        if (bufferCapacity < 1) {
            throw new IllegalArgumentException("synccontext.live.buffer-capacity must be at least 1, not " + bufferCapacity);
        }
        this.bufferCapacity = bufferCapacity;
    }

    public int getReplayCapacity() {
        return replayCapacity;
    }

    public void setReplayCapacity(int replayCapacity) {
        if (replayCapacity < 0) {
            throw new IllegalArgumentException("synccontext.live.replay-capacity must be 0 or more, not " + replayCapacity);
        }
        this.replayCapacity = replayCapacity;
    }

    public boolean isInlineWrites() {
        return inlineWrites;
    }

    public void setInlineWrites(boolean inlineWrites) {
        this.inlineWrites = inlineWrites;
    }

    public Duration getSseTimeout() {
        return sseTimeout;
    }

    public void setSseTimeout(Duration sseTimeout) {
        this.sseTimeout = positive("synccontext.live.sse-timeout", sseTimeout);
    }

    public int getMaxLanesPerStream() {
        return maxLanesPerStream;
    }

    public void setMaxLanesPerStream(int maxLanesPerStream) {
        if (maxLanesPerStream < 1) {
            throw new IllegalArgumentException("synccontext.live.max-lanes-per-stream must be at least 1, not "
                    + maxLanesPerStream);
        }
        this.maxLanesPerStream = maxLanesPerStream;
    }

    public int getShutdownPace() {
        return shutdownPace;
    }

    public void setShutdownPace(int shutdownPace) {
        if (shutdownPace < 0) {
            throw new IllegalArgumentException("synccontext.live.shutdown-pace must be 0 (no pacing) or more closes per"
                    + " second, not " + shutdownPace);
        }
        this.shutdownPace = shutdownPace;
    }

    public Duration getSendTimeout() {
        return sendTimeout;
    }

    public void setSendTimeout(Duration sendTimeout) {
        this.sendTimeout = positive("synccontext.live.send-timeout", sendTimeout);
    }

    /** The servlet container and Tomcat's WebSocket read 0 as "no timeout": refused, it would unbound a slow client. */
    private static Duration positive(String property, Duration timeout) {
        if (timeout == null || timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException(property + " must be positive, not " + timeout + ": 0 would mean no"
                    + " timeout at all, so one slow client could hold its subscriber (and its buffers) forever");
        }
        return timeout;
    }
}
