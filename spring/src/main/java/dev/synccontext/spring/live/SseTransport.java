package dev.synccontext.spring.live;

import dev.synccontext.live.CloseReason;
import dev.synccontext.live.LiveMessage;
import dev.synccontext.live.LiveSubscriber;
import dev.synccontext.live.LiveTransport;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * One SSE response as a {@link LiveTransport}, on Servlet non-blocking I/O: a write never waits for the
 * client; when the container cannot take more ({@code isReady()} is false) the drain parks, and the
 * container's {@code onWritePossible} wakes it. A client that stops reading therefore holds no thread at
 * all, only its subscriber's bounded buffer plus what the container and the kernel already took (at most one
 * message beyond the socket buffers). Events are {@code id}, {@code event}, {@code data} fields; the
 * response is flushed when the subscriber's buffer runs empty, so a burst goes out in few packets.
 *
 * <p>The stream is touched only by the subscriber's drain ({@link #ready}, {@link #write}, {@link #flush}) and
 * by {@link #close}, which runs after the drain has stopped for good; the container's callbacks only
 * signal.
 */
final class SseTransport extends EventStreamTransport implements WriteListener, AsyncListener {

    /** What {@link #close close(GOING_AWAY)} writes before it ends the stream. */
    static final byte[] GOING_AWAY_FRAME = ("event:" + LiveFrames.GOING_AWAY_EVENT + "\ndata:{\"reconnect\":true}\n\n")
            .getBytes(StandardCharsets.UTF_8);

    private final AsyncContext async;
    private final ServletOutputStream out;
    private final LiveEncoder encoder;
    /** Written since the last flush (touched by the drain only). */
    private boolean dirty;

    SseTransport(AsyncContext async, ServletOutputStream out, LiveEncoder encoder, @Nullable String lastEventId) {
        super(lastEventId);
        this.async = async;
        this.out = out;
        this.encoder = encoder;
    }

    @Override
    public boolean ready() {
        return out.isReady();
    }

    /**
     * {@code true}: the stream is in non-blocking mode (its write listener is set before the subscriber exists), so
     * {@code isReady}, {@code write} and {@code flush} never wait for the client; the container keeps what the
     * socket does not take and says not ready. The locks they take are the container's short state locks, never
     * held across a wait for the network.
     */
    @Override
    public boolean writesWithoutBlocking() {
        return true;
    }

    @Override
    public boolean write(LiveMessage message) throws Exception {
        out.write(SseFrames.frame(message.id(), message.event(), encoder.encode(message.data())));
        dirty = true;
        return out.isReady();
    }

    @Override
    public boolean flush() throws IOException {
        if (dirty) {
            dirty = false;
            out.flush();
        }
        return out.isReady();
    }

    @Override
    public void close(CloseReason reason) {
        if (reason == CloseReason.GOING_AWAY && !markEnded()) {
            goingAway();
        }
        markEnded();
        try {
            async.complete();
        } catch (IllegalStateException alreadyComplete) {
            // The container completed it (timeout, error) before us.
        }
    }

    /**
     * The last event of a stream whose server shuts down: {@code event:going-away} without an id (the client
     * resumes from the last message it saw), written only if the container can take it now; a client that
     * does not read just sees its stream end.
     */
    private void goingAway() {
        try {
            if (out.isReady()) {
                out.write(GOING_AWAY_FRAME);
                out.flush();
            }
        } catch (IOException | IllegalStateException gone) {
            // The client left already; completing the stream below is all that is left to do.
        }
    }

    // ---- the container's callbacks: they only signal the subscriber ----

    @Override
    public void onWritePossible() {
        signalWritable();
    }

    @Override
    public void onError(Throwable failure) {
        ended(failure);
    }

    @Override
    public void onComplete(AsyncEvent event) {
        ended(null);
    }

    @Override
    public void onTimeout(AsyncEvent event) {
        ended(null);
        completeNow();
    }

    @Override
    public void onError(AsyncEvent event) {
        ended(event.getThrowable());
        completeNow();
    }

    /**
     * Completes the response inside the container's listener call: a listener that neither completes nor
     * dispatches makes the container dispatch to its error page, whose JSON body cannot be written on an
     * event stream (and is logged as a warning for every tab that went away).
     */
    private void completeNow() {
        try {
            async.complete();
        } catch (IllegalStateException alreadyComplete) {
            // Completed by close() meanwhile.
        }
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
    }
}
