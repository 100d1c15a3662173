package dev.synccontext.spring.websocket;

import dev.synccontext.testing.LocalServerBrowsers;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.springframework.messaging.converter.StringMessageConverter;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.web.socket.WebSocketHttpHeaders;
import org.springframework.web.socket.client.standard.StandardWebSocketClient;
import org.springframework.web.socket.messaging.WebSocketStompClient;

/**
 * A STOMP client with String payloads, bound to the port of the Spring Boot test's running server: what a test
 * method, lifecycle method or constructor gets for a {@code LocalStomp} parameter when its class is extended
 * with {@link Resolver}. Each parameter is a client of its own, stopped when the test that asked for it ends.
 */
public final class LocalStomp implements AutoCloseable {

    private final WebSocketStompClient client = new WebSocketStompClient(new StandardWebSocketClient());
    private final int port;

    LocalStomp(int port) {
        this.port = port;
        client.setMessageConverter(new StringMessageConverter());
    }

    /** Connects to {@code ws://127.0.0.1:port} plus {@code path} (such as {@code /stomp}). */
    public StompSession connect(String path) throws Exception {
        return StompClients.connect(client, port, path);
    }

    /** Connects as {@link #connect(String)} does, sending {@code headers} in the handshake. */
    public StompSession connect(String path, WebSocketHttpHeaders headers) throws Exception {
        return StompClients.connect(client, port, path, headers);
    }

    /** The underlying client, for a test that sets its limits. */
    public WebSocketStompClient client() {
        return client;
    }

    @Override
    public void close() {
        client.stop();
    }

    /** Resolves {@code LocalStomp} parameters; the test's extension store stops each client after the test. */
    public static final class Resolver implements ParameterResolver {

        private static final ExtensionContext.Namespace CLIENTS = ExtensionContext.Namespace.create(LocalStomp.class);

        @Override
        public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
            return parameter.getParameter().getType() == LocalStomp.class;
        }

        @Override
        public LocalStomp resolveParameter(ParameterContext parameter, ExtensionContext context) {
            LocalStomp stomp = new LocalStomp(LocalServerBrowsers.port(context));
            context.getStore(CLIENTS).put(stomp, stomp); // closed with the store, when the test ends
            return stomp;
        }
    }
}
