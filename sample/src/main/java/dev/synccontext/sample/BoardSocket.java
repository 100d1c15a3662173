package dev.synccontext.sample;

import java.io.IOException;
import java.util.Map;

import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.handler.ConcurrentWebSocketSessionDecorator;
import tools.jackson.databind.json.JsonMapper;

/**
 * One tab's WebSocket live channel, as the {@link Board} sees it: the same {@code board} and {@code ended}
 * messages as the event stream, as JSON text frames ({@code {"type":"board","board":{...}}}).
 *
 * <p>The board calls it only from inside its context, so sends never overlap. They do not block that
 * context on a slow tab either: the session is wrapped in Spring's
 * {@link ConcurrentWebSocketSessionDecorator}, which buffers what a slow client has not taken yet and closes
 * a client that falls too far behind, so one stuck tab cannot stall its board.
 */
final class BoardSocket {

    private static final int SEND_TIME_LIMIT_MILLIS = 10_000;
    private static final int BUFFER_LIMIT_BYTES = 512 * 1024;

    private final WebSocketSession session;
    private final JsonMapper json;

    BoardSocket(WebSocketSession session, JsonMapper json) {
        this.session = new ConcurrentWebSocketSessionDecorator(session, SEND_TIME_LIMIT_MILLIS, BUFFER_LIMIT_BYTES);
        this.json = json;
    }

    /** Sends one snapshot; {@code false} if this tab's socket is gone (closed, too slow, broken). */
    boolean send(BoardSnapshot snapshot) {
        return write(Map.of("type", "board", "board", snapshot));
    }

    /** Tells the tab why its board ended, then closes the socket. */
    void end(String reason) {
        write(Map.of("type", "ended", "reason", reason));
        try {
            session.close(CloseStatus.NORMAL);
        } catch (IOException gone) {
            // The tab is already gone; nothing to tell it.
        }
    }

    /** Answers a frame the board could not apply (the page shows it as a toast). */
    void refuse(String detail) {
        write(Map.of("type", "error", "detail", detail));
    }

    private boolean write(Object message) {
        if (!session.isOpen()) {
            return false;
        }
        try {
            session.sendMessage(new TextMessage(json.writeValueAsString(message)));
            return true;
        } catch (IOException | IllegalStateException gone) {
            return false;
        }
    }
}
