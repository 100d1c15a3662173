package dev.synccontext.sample;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.live.LiveWebSocket;
import dev.synccontext.live.LiveSubscriber;
import dev.synccontext.live.LiveTransport;
import jakarta.servlet.http.HttpSession;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.ServerHttpRequest;
import org.springframework.http.server.ServerHttpResponse;
import org.springframework.http.server.ServletServerHttpRequest;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketHandler;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.TextWebSocketHandler;
import org.springframework.web.socket.server.HandshakeInterceptor;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The board's live channel over a WebSocket ({@code /api/live}), the alternative to the event stream:
 * the tab subscribes to the same {@link Board#live() channel} through the library's {@link LiveWebSocket}
 * transport, so it gets the same {@code board} and {@code ended} messages as JSON text frames
 * ({@code {"id":"…","event":"board","snapshot":…,"data":{…}}}), and sends its counter clicks as frames
 * ({@code {"action":"increment"}} or {@code {"action":"reset"}}) instead of POSTs. A reconnect that passes
 * the last id it saw ({@code /api/live?lastEventId=…}) resumes like an event stream.
 *
 * <p>The socket belongs to the tab's HTTP session: the handshake (an ordinary request of that session)
 * finds the session's context, and every frame is handled on it (the {@link Board} proxy then is that
 * session's board), in turn with the clicks, ticks and quote answers that arrive over HTTP and from the
 * scheduler. So the board stays plain fields however many tabs and channels change it at once.
 *
 * <p>Only the tab's subscriber writes to the socket (one frame in flight, off the context): a frame the
 * board cannot apply is answered through that subscriber too ({@link LiveSubscriber#send}, an {@code error}
 * message with {@code {"detail":…}}), in order with the boards, never by a second writer.
 */
final class BoardSocketHandler extends TextWebSocketHandler implements HandshakeInterceptor {

    private static final String CONTEXT = RendererSyncContext.class.getName();
    private static final String SUBSCRIBER = LiveSubscriber.class.getName();
    /** The tab's session ended before its subscription reached the board's context. */
    private static final CloseStatus SESSION_ENDED = CloseStatus.GOING_AWAY.withReason("session ended");
    static final String ERROR_EVENT = "error";

    /** The board proxy: inside a callback of a session's context, that session's board. */
    private final Board board;
    private final LiveWebSocket live;
    private final JsonMapper json;

    BoardSocketHandler(Board board, LiveWebSocket live, JsonMapper json) {
        this.board = board;
        this.live = live;
        this.json = json;
    }

    /** What an {@code error} message carries: why a frame was refused. */
    record Refusal(String detail) {
    }

    // ---- the handshake: an HTTP request of the tab's session ----

    /** Binds the socket to the session's board; refuses (410) a handshake without a live session. */
    @Override
    public boolean beforeHandshake(ServerHttpRequest request, ServerHttpResponse response, WebSocketHandler handler,
            Map<String, Object> attributes) {
        HttpSession session = request instanceof ServletServerHttpRequest servlet
                ? servlet.getServletRequest().getSession(false) : null;
        if (session == null) {
            response.setStatusCode(HttpStatus.GONE); // GET /api/board starts a session; this call never does
            return false;
        }
        // The handshake is a request of the session, so the proxy resolves to its board here; the socket's own
        // threads have no request, so the socket keeps the session's context and calls the board inside it.
        attributes.put(CONTEXT, board.context());
        return true;
    }

    @Override
    public void afterHandshake(ServerHttpRequest request, ServerHttpResponse response, WebSocketHandler handler,
            Exception exception) {
    }

    // ---- the socket ----

    @Override
    public void afterConnectionEstablished(WebSocketSession session) {
        LiveTransport transport = live.transport(session); // resumes from the handshake's ?lastEventId=
        CompletableFuture<LiveSubscriber> subscribed = context(session)
                .invokeAsync(() -> board.live().subscribe(transport));
        session.getAttributes().put(SUBSCRIBER, subscribed);
        subscribed.whenComplete((tab, refused) -> {
            if (refused != null) { // the session's context is closing: nothing subscribed, nothing else writes
                try {
                    session.close(SESSION_ENDED);
                } catch (IOException gone) {
                    // The tab is already gone; nothing to tell it.
                }
            }
        });
    }

    @Override
    protected void handleTextMessage(WebSocketSession session, TextMessage message) {
        RendererSyncContext context = context(session);
        String action = action(message.getPayload());
        CompletableFuture<BoardSnapshot> applied = switch (action) {
            case "increment" -> context.invokeAsync(board::increment);
            case "reset" -> context.invokeAsync(board::resetCounter);
            default -> CompletableFuture.failedFuture(new IllegalArgumentException(
                    "Unknown action '" + action + "': send {\"action\":\"increment\"} or {\"action\":\"reset\"}."));
        };
        // The change reaches every tab through the board's channel; only a refusal is answered here, to this
        // tab alone. A session that is ending refuses too; its channel's end tells the tab, and then a send
        // to the ended channel sends nothing.
        applied.whenComplete((ignored, failure) -> {
            if (failure != null) {
                Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause() : failure;
                Refusal refusal = new Refusal(String.valueOf(cause.getMessage()));
                subscriber(session).thenAccept(tab -> tab.send(ERROR_EVENT, refusal));
            }
        });
    }

    @Override
    public void afterConnectionClosed(WebSocketSession session, CloseStatus status) {
        // Whenever the subscription completes (it may still be queued on the context): the tab leaves.
        subscriber(session).thenAccept(LiveSubscriber::cancel);
    }

    private String action(String payload) {
        try {
            JsonNode node = json.readTree(payload);
            return node.path("action").asString("");
        } catch (RuntimeException malformed) {
            return "";
        }
    }

    private static RendererSyncContext context(WebSocketSession session) {
        return (RendererSyncContext) session.getAttributes().get(CONTEXT);
    }

    /** The tab's subscription; a failed one when the socket never got one (its transport could not be made). */
    @SuppressWarnings("unchecked")
    private static CompletableFuture<LiveSubscriber> subscriber(WebSocketSession session) {
        Object subscribed = session.getAttributes().get(SUBSCRIBER);
        return subscribed != null ? (CompletableFuture<LiveSubscriber>) subscribed
                : CompletableFuture.failedFuture(new IllegalStateException("socket " + session.getId() + " never subscribed"));
    }
}
