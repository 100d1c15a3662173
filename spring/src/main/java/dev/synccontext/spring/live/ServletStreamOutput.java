package dev.synccontext.spring.live;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import java.io.IOException;
import org.jspecify.annotations.Nullable;

/**
 * A {@link SharedStream}'s response on Servlet non-blocking I/O, as {@link SseTransport} is for one channel: the
 * stream writes and flushes only while {@code isReady()}, and the container's {@code onWritePossible} wakes it.
 * The container's callbacks only signal the stream.
 */
record ServletStreamOutput(SharedStream stream, AsyncContext async, ServletOutputStream out)
        implements StreamOutput, WriteListener, AsyncListener {

    @Override
    public boolean ready() {
        return out.isReady();
    }

    @Override
    public void write(@Nullable String id, String event, String data) throws IOException {
        out.write(SseFrames.frame(id, event, data));
    }

    @Override
    public boolean flush() throws IOException {
        out.flush();
        return out.isReady();
    }

    @Override
    public void end(boolean goingAway) {
        if (goingAway) {
            try {
                if (out.isReady()) { // only if the container takes it now: a client that does not read just ends
                    out.write(SseTransport.GOING_AWAY_FRAME);
                    out.flush();
                }
            } catch (IOException | IllegalStateException gone) {
                // The client left already; completing the stream is all that is left to do.
            }
        }
        completeNow();
    }

    @Override
    public void fail(Throwable cause) {
        completeNow(); // the response is started (asynchronous, 200): an empty stream that ends is all it can say
    }

    @Override
    public void onWritePossible() {
        stream.writable();
    }

    @Override
    public void onError(Throwable failure) {
        stream.ended();
    }

    @Override
    public void onComplete(AsyncEvent event) {
        stream.ended();
    }

    @Override
    public void onTimeout(AsyncEvent event) {
        stream.ended();
        completeNow();
    }

    @Override
    public void onError(AsyncEvent event) {
        stream.ended();
        completeNow();
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
    }

    /** Completes inside a listener call too: otherwise the container dispatches to its error page (see SseTransport). */
    private void completeNow() {
        try {
            async.complete();
        } catch (IllegalStateException alreadyComplete) {
            // The container completed it (timeout, error) before us.
        }
    }
}
