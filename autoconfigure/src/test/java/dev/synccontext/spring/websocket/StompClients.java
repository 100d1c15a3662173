package dev.synccontext.spring.websocket;

import java.lang.reflect.Type;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.springframework.messaging.simp.stomp.StompFrameHandler;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.messaging.simp.stomp.StompSessionHandlerAdapter;
import org.springframework.web.socket.WebSocketHttpHeaders;
import org.springframework.web.socket.messaging.WebSocketStompClient;

/**
 * How the tests talk STOMP over a real socket to the application on {@code 127.0.0.1}: connect (with the
 * handshake's headers, such as a session cookie, when given), and subscribe with String payloads.
 */
public final class StompClients {

    /** How long a connect may take on a loaded machine. */
    private static final long CONNECT_SECONDS = 60;

    private StompClients() {
    }

    /** Connects {@code client} to {@code ws://127.0.0.1:port} plus {@code path} (such as {@code /stomp}). */
    public static StompSession connect(WebSocketStompClient client, int port, String path) throws Exception {
        return connect(client, port, path, new WebSocketHttpHeaders());
    }

    /** Connects as {@link #connect(WebSocketStompClient, int, String)} does, sending {@code headers} in the handshake. */
    public static StompSession connect(WebSocketStompClient client, int port, String path,
            WebSocketHttpHeaders headers) throws Exception {
        return client.connectAsync("ws://127.0.0.1:" + port + path, headers, new StompSessionHandlerAdapter() {
        }).get(CONNECT_SECONDS, TimeUnit.SECONDS);
    }

    /** Subscribes to {@code destination}, handing each frame's headers and String body to {@code receiver}. */
    public static StompSession.Subscription subscribe(StompSession session, String destination,
            BiConsumer<StompHeaders, String> receiver) {
        return session.subscribe(destination, new StompFrameHandler() {
            @Override
            public Type getPayloadType(StompHeaders headers) {
                return String.class;
            }

            @Override
            public void handleFrame(StompHeaders headers, Object payload) {
                receiver.accept(headers, (String) payload);
            }
        });
    }

    /** Subscribes to {@code destination}; the returned queue receives each frame's String body. */
    public static BlockingQueue<String> subscribe(StompSession session, String destination) {
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        subscribe(session, destination, (headers, body) -> received.add(body));
        return received;
    }
}
