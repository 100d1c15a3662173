package dev.synccontext.sample;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;

import dev.synccontext.RendererSyncContext;
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
 * the tab gets the same board snapshots, and sends its counter clicks as frames
 * ({@code {"action":"increment"}} or {@code {"action":"reset"}}) instead of POSTs.
 *
 * <p>The socket belongs to the tab's HTTP session: the handshake (an ordinary request of that session)
 * finds the session's context, and every frame is handled on it (the {@link Board} proxy then is that session's board), in turn with
 * the clicks, ticks and quote answers that arrive over HTTP and from the scheduler. So the board stays
 * plain fields however many tabs and channels change it at once.
 */
final class BoardSocketHandler extends TextWebSocketHandler implements HandshakeInterceptor {

    private static final String CONTEXT = RendererSyncContext.class.getName();
    private static final String SOCKET = BoardSocket.class.getName();
    private static final String UNSUBSCRIBE = SOCKET + ".unsubscribe";

    /** The board proxy: inside a callback of a session's context, that session's board. */
    private final Board board;
    private final JsonMapper json;

    BoardSocketHandler(Board board, JsonMapper json) {
        this.board = board;
        this.json = json;
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
        BoardSocket socket = new BoardSocket(session, json);
        session.getAttributes().put(SOCKET, socket);
        CompletableFuture<Runnable> subscribed = context(session).invokeAsync(() -> board.subscribe(socket));
        subscribed.whenComplete((unsubscribe, failure) -> {
            if (failure != null) {
                socket.end("It was ended from one of its tabs, or it expired."); // the session ended meanwhile
            } else {
                session.getAttributes().put(UNSUBSCRIBE, unsubscribe);
            }
        });
    }

    @Override
    protected void handleTextMessage(WebSocketSession session, TextMessage message) {
        RendererSyncContext context = context(session);
        BoardSocket socket = (BoardSocket) session.getAttributes().get(SOCKET);
        String action = action(message.getPayload());
        CompletableFuture<BoardSnapshot> applied = switch (action) {
            case "increment" -> context.invokeAsync(board::increment);
            case "reset" -> context.invokeAsync(board::resetCounter);
            default -> CompletableFuture.failedFuture(new IllegalArgumentException(
                    "Unknown action '" + action + "': send {\"action\":\"increment\"} or {\"action\":\"reset\"}."));
        };
        // The change reaches every tab through the board itself; only a refusal is answered here.
        applied.whenComplete((ignored, failure) -> {
            if (failure != null) {
                Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause() : failure;
                if (cause instanceof RejectedExecutionException) {
                    socket.end("It was ended from one of its tabs, or it expired.");
                } else {
                    socket.refuse(cause.getMessage());
                }
            }
        });
    }

    @Override
    public void afterConnectionClosed(WebSocketSession session, CloseStatus status) {
        // Queued behind the subscription, so it is there once the subscribe callback has run.
        context(session).invokeAsync(() -> { }).whenComplete((ignored, refused) -> {
            if (session.getAttributes().get(UNSUBSCRIBE) instanceof Runnable unsubscribe) {
                unsubscribe.run();
            }
        });
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
}
