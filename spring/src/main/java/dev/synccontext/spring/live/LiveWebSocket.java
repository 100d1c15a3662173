package dev.synccontext.spring.live;

import dev.synccontext.live.LiveTransport;
import jakarta.websocket.RemoteEndpoint;
import jakarta.websocket.Session;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.springframework.web.socket.adapter.NativeWebSocketSession;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.WebSocketSessionDecorator;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * Plain WebSocket sessions as live-channel transports. In a handler's {@code afterConnectionEstablished}
 * (inside the session's context when the handler is wrapped in {@code SyncContextWebSocketHandler}):
 *
 * <pre>{@code
 * LiveSubscriber tab = board.live().subscribe(live.transport(session));
 * }</pre>
 * and {@code tab.cancel()} in {@code afterConnectionClosed}. Each message is a text frame
 * {@code {"id":"…","event":"…","snapshot":false,"data":…}}; a client that reconnects passes the last id it saw
 * as the query parameter {@code lastEventId} of the handshake URI, and resumes like an SSE client.
 *
 * <h2>Bounds</h2>
 * Frames go out with the JSR 356 asynchronous API, one in flight per session: no thread waits for a client
 * that does not read. A frame not sent within {@code synccontext.live.send-timeout} fails and ends the
 * subscriber; the close frame that follows is bounded by the same time (Tomcat's blocking send timeout,
 * set per session). Needs a JSR 356 session underneath (Tomcat, Jetty, Undertow; not SockJS fallbacks).
 */
public final class LiveWebSocket {

    /** Tomcat's per-session bound on blocking sends (the close frame): {@code org.apache.tomcat.websocket.Constants}. */
    static final String TOMCAT_BLOCKING_SEND_TIMEOUT = "org.apache.tomcat.websocket.BLOCKING_SEND_TIMEOUT";

    private final LiveEncoder encoder;
    private final Duration sendTimeout;

    public LiveWebSocket(LiveEncoder encoder, Duration sendTimeout) {
        this.encoder = Objects.requireNonNull(encoder, "encoder");
        this.sendTimeout = Objects.requireNonNull(sendTimeout, "sendTimeout");
    }

    /** A transport over {@code session}, resuming from the handshake URI's {@code lastEventId} parameter. */
    public LiveTransport transport(WebSocketSession session) {
        return transport(session, lastEventId(session.getUri()));
    }

    /**
     * A transport over {@code session}, resuming after {@code lastEventId} ({@code null}: a snapshot first).
     *
     * @throws IllegalArgumentException the session has no JSR 356 session underneath (a SockJS session)
     */
    public LiveTransport transport(WebSocketSession session, @Nullable String lastEventId) {
        WebSocketSession inner = WebSocketSessionDecorator.unwrap(session);
        Session jsr = inner instanceof NativeWebSocketSession nativeSession
                ? nativeSession.getNativeSession(Session.class) : null;
        if (jsr == null) {
            throw new IllegalArgumentException("WebSocket session " + session.getId() + " (" + inner.getClass().getName()
                    + ") has no JSR 356 session underneath, so it cannot send without blocking; live channels need"
                    + " a standard WebSocket endpoint (no SockJS fallback transport).");
        }
        RemoteEndpoint.Async remote = jsr.getAsyncRemote();
        remote.setSendTimeout(sendTimeout.toMillis());
        jsr.getUserProperties().put(TOMCAT_BLOCKING_SEND_TIMEOUT, sendTimeout.toMillis());
        return new WebSocketTransport(session, remote, encoder, lastEventId);
    }

    private static @Nullable String lastEventId(@Nullable URI uri) {
        return uri == null ? null : UriComponentsBuilder.fromUri(uri).build().getQueryParams().getFirst("lastEventId");
    }
}
