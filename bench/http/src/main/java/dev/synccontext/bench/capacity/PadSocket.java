package dev.synccontext.bench.capacity;

import dev.synccontext.live.LiveSubscriber;
import dev.synccontext.spring.live.LiveWebSocket;
import dev.synccontext.spring.websocket.SyncContextWebSocketHandler;
import dev.synccontext.spring.websocket.WebSocketSessionContexts;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.config.annotation.EnableWebSocket;
import org.springframework.web.socket.config.annotation.WebSocketConfigurer;
import org.springframework.web.socket.config.annotation.WebSocketHandlerRegistry;
import org.springframework.web.socket.handler.TextWebSocketHandler;

/**
 * A tab over a plain WebSocket ({@code /pad/ws}): the connection is the session, as in a live-view framework.
 * Its context is the WebSocket session's ({@link SyncContextWebSocketHandler}), so it has a {@link Pad} of its
 * own; the pad's live channel streams to the socket (each message a text frame
 * {@code {"id":…,"event":"pad","snapshot":…,"data":{…}}}), and a click is the text frame {@code click <nonce>}
 * on the same socket, answered by the update carrying that nonce.
 */
@Configuration(proxyBeanMethods = false)
@EnableWebSocket
class PadSocket extends TextWebSocketHandler implements WebSocketConfigurer {

    private static final String TAB = "tab";

    private final Pad pad;
    private final LiveWebSocket transports;
    private final WebSocketSessionContexts contexts;

    PadSocket(Pad pad, LiveWebSocket transports, WebSocketSessionContexts contexts) {
        this.pad = pad;
        this.transports = transports;
        this.contexts = contexts;
    }

    @Override
    public void registerWebSocketHandlers(WebSocketHandlerRegistry registry) {
        registry.addHandler(new SyncContextWebSocketHandler(this, contexts), "/pad/ws");
    }

    @Override
    public void afterConnectionEstablished(WebSocketSession session) {
        session.getAttributes().put(TAB, pad.live().subscribe(transports.transport(session)));
    }

    @Override
    protected void handleTextMessage(WebSocketSession session, TextMessage message) throws Exception {
        String text = message.getPayload();
        long nonce = text.startsWith("click ") ? parse(text.substring(6)) : -1;
        if (nonce <= 0) {
            session.close(CloseStatus.BAD_DATA.withReason("expected 'click <positive nonce>', was '"
                    + text.substring(0, Math.min(text.length(), 40)) + "'"));
            return;
        }
        pad.click(nonce);
    }

    @Override
    public void afterConnectionClosed(WebSocketSession session, CloseStatus status) {
        if (session.getAttributes().get(TAB) instanceof LiveSubscriber tab) {
            tab.cancel();
        }
    }

    private static long parse(String number) {
        try {
            return Long.parseLong(number.trim());
        } catch (NumberFormatException notANumber) {
            return -1;
        }
    }
}
