package dev.synccontext.spring.live;

import dev.synccontext.live.CloseReason;
import dev.synccontext.live.LiveMessage;
import dev.synccontext.live.LiveSubscriber;
import dev.synccontext.live.LiveTransport;
import jakarta.websocket.RemoteEndpoint;
import jakarta.websocket.SendResult;
import java.io.IOException;
import org.jspecify.annotations.Nullable;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.WebSocketSession;

/**
 * One WebSocket session as a {@link LiveTransport}: each message is one text frame sent with the JSR 356
 * asynchronous API, so no thread waits while the client does not read; the next frame starts when the
 * container reports the previous one sent. A send that has not completed within the send timeout fails, and
 * the subscriber ends ({@link CloseReason#GONE}).
 */
final class WebSocketTransport implements LiveTransport {

    /** Close code 1013, "try again later": the client fell too far behind; it reconnects and resumes. */
    static final CloseStatus TOO_SLOW = new CloseStatus(1013, "too slow; reconnect");

    private final WebSocketSession session;
    private final RemoteEndpoint.Async remote;
    private final LiveEncoder encoder;
    private final @Nullable String lastEventId;
    private volatile boolean inFlight;
    private volatile @Nullable LiveSubscriber subscriber;

    WebSocketTransport(WebSocketSession session, RemoteEndpoint.Async remote, LiveEncoder encoder,
            @Nullable String lastEventId) {
        this.session = session;
        this.remote = remote;
        this.encoder = encoder;
        this.lastEventId = lastEventId;
    }

    @Override
    public void attach(LiveSubscriber subscriber) {
        this.subscriber = subscriber;
    }

    @Override
    public @Nullable String lastEventId() {
        return lastEventId;
    }

    @Override
    public boolean ready() {
        if (!session.isOpen()) {
            throw new IllegalStateException("WebSocket session " + session.getId() + " is closed");
        }
        return !inFlight;
    }

    @Override
    public boolean write(LiveMessage message) throws Exception {
        String frame = LiveFrames.json(message, encoder.encode(message.data()));
        inFlight = true;
        remote.sendText(frame, this::sent);
        return !inFlight; // the container may have completed the send before returning
    }

    private void sent(SendResult result) {
        inFlight = false;
        LiveSubscriber attached = subscriber;
        if (attached == null) {
            return;
        }
        if (result.isOK()) {
            attached.writable();
        } else {
            attached.gone(result.getException());
        }
    }

    @Override
    public void close(CloseReason reason) {
        CloseStatus status = switch (reason) {
            case TOO_SLOW -> TOO_SLOW;
            case CHANNEL_CLOSED, GOING_AWAY -> CloseStatus.GOING_AWAY; // 1001
            case CANCELLED, GONE -> CloseStatus.NORMAL;
        };
        try {
            session.close(status);
        } catch (IOException | RuntimeException gone) {
            // The connection is already broken; nothing left to tell the client.
        }
    }
}
