package dev.synccontext.spring.websocket;


import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.RendererSyncContext;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.TextMessage;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.config.annotation.EnableWebSocket;
import org.springframework.web.socket.config.annotation.WebSocketConfigurer;
import org.springframework.web.socket.config.annotation.WebSocketHandlerRegistry;
import org.springframework.web.socket.handler.TextWebSocketHandler;
import dev.synccontext.testing.OnRandomPort;

/**
 * A plain {@code WebSocketHandler} (no STOMP) wrapped in {@link SyncContextWebSocketHandler}, end
 * to end over a real socket with the JDK's WebSocket client.
 *
 * <p>The container delivers one session's frames one at a time, so the race here is the usual one of a
 * live channel: every frame also starts work on a 4-thread pool whose continuation updates the session's
 * state. Each frame increments the session's plain {@code int} twice: once in the handler (on the
 * container's thread) and once in the continuation. Only the session's context keeps that exact: the
 * handler runs inside it and the continuation hops onto it with {@code thenRunAsync(..., context)}.
 */
@OnRandomPort(classes = PlainWebSocketContextTest.App.class)
class PlainWebSocketContextTest extends TallyingWebSocketTest {

    @Autowired
    CountingHandler handler;

    @BeforeEach
    void nothingOpen() {
        awaitWebSocketContexts(0);
    }

    @Test
    void fourThreadsSendingFiveHundredFramesEachOverOneSocketCountExactly() throws Exception {
        Client socket = Client.connect(port);
        try {
            runConcurrently(SENDERS, sender -> {
                for (int i = 0; i < FRAMES; i++) {
                    socket.send(run + "shared");
                }
            });
            // Two increments per frame: one in the handler, one in its continuation.
            awaitHandled(run + "shared", SENDERS * FRAMES).assertExactOnOneContext(2 * SENDERS * FRAMES);
            assertThat(webSocketContexts()).isEqualTo(1);
        } finally {
            socket.close();
        }
        awaitWebSocketContexts(0);
    }

    @Test
    void fourSocketsEachCountExactlyOnContextsOfTheirOwn() throws Exception {
        assertConnectionsCountExactlyOnContextsOfTheirOwn(2); // one in the handler, one in its continuation
    }

    @Test
    void aCleanCloseRunsTheHandlerInsideTheContextThenReleasesIt() throws Exception {
        Client socket = Client.connect(port);
        for (int i = 0; i < FRAMES; i++) {
            socket.send(run + "clean");
        }
        Tally tally = awaitHandled(run + "clean", FRAMES);
        RendererSyncContext context = tally.onlyContext();
        socket.close();
        awaitWebSocketContexts(0);
        assertThat(context.isClosed()).isTrue();
        await().atMost(WAIT).until(() -> handler.closedInsideContext.get() + handler.closedOutsideContext.get() > 0);
        assertThat(handler.closedOutsideContext).as("afterConnectionClosed calls outside the session's context")
                .hasValue(0);
        assertThat(handler.establishedOutsideContext).hasValue(0);
    }

    @Test
    void aKilledSocketReleasesTheContext() throws Exception {
        Client socket = Client.connect(port);
        for (int i = 0; i < FRAMES; i++) {
            socket.send(run + "killed");
        }
        await().atMost(WAIT).until(() -> handler.tallies.containsKey(run + "killed"));
        socket.kill(); // no close frame: the TCP connection just goes away
        awaitWebSocketContexts(0);
        RendererSyncContext context = handler.tallies.get(run + "killed").onlyContext();
        assertThat(context.isClosed()).isTrue();
    }

    @Override
    Map<String, Tally> tallies() {
        return handler.tallies;
    }

    @Override
    Connection connect() throws Exception {
        return Client.connect(port);
    }

    @Override
    String whileWaiting() {
        return "; sessions established " + handler.established.get() + ", closed "
                + (handler.closedInsideContext.get() + handler.closedOutsideContext.get());
    }

    /** The JDK's WebSocket client; it allows one outstanding send, so senders take turns. */
    static final class Client implements WebSocket.Listener, Connection {
        private final WebSocket socket;

        private Client(int port) throws Exception {
            socket = HttpClient.newHttpClient().newWebSocketBuilder()
                    .buildAsync(URI.create("ws://127.0.0.1:" + port + "/plain"), this).get(30, SECONDS);
        }

        static Client connect(int port) throws Exception {
            return new Client(port);
        }

        @Override
        public synchronized void send(String text) throws Exception {
            socket.sendText(text, true).get(30, SECONDS);
        }

        @Override
        public synchronized void close() {
            socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").orTimeout(30, SECONDS).join();
        }

        void kill() {
            socket.abort();
        }
    }

    // ---------------------------------------------------------------- the application

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableWebSocket
    @Import(CountingHandler.class)
    static class App implements WebSocketConfigurer {

        @Autowired
        WebSocketSessionContexts contexts;

        @Autowired
        CountingHandler handler;

        @Override
        public void registerWebSocketHandlers(WebSocketHandlerRegistry registry) {
            registry.addHandler(new SyncContextWebSocketHandler(handler, contexts), "/plain");
        }
    }

    static class CountingHandler extends TextWebSocketHandler implements AutoCloseable {

        final Map<String, Tally> tallies = new ConcurrentHashMap<>();
        final AtomicInteger established = new AtomicInteger();
        final AtomicInteger establishedOutsideContext = new AtomicInteger();
        final AtomicInteger closedInsideContext = new AtomicInteger();
        final AtomicInteger closedOutsideContext = new AtomicInteger();
        private final WebSocketSessionContexts contexts;
        private final ExecutorService pool = Executors.newFixedThreadPool(4);

        CountingHandler(WebSocketSessionContexts contexts) {
            this.contexts = contexts;
        }

        @Override
        public void afterConnectionEstablished(WebSocketSession session) {
            established.incrementAndGet();
            if (!contexts.require(session.getAttributes()).checkAccess()) {
                establishedOutsideContext.incrementAndGet();
            }
        }

        @Override
        protected void handleTextMessage(WebSocketSession session, TextMessage message) {
            RendererSyncContext context = contexts.require(session.getAttributes());
            Tally tally = tallies.computeIfAbsent(message.getPayload(), k -> new Tally());
            tally.increment(context); // here, on the container's thread, inside the context
            CompletableFuture.runAsync(() -> { }, pool) // some work elsewhere, then back onto the session
                    .thenRunAsync(() -> tally.increment(context), context)
                    .whenComplete((ignored, failure) -> tally.handled.incrementAndGet());
        }

        @Override
        public void afterConnectionClosed(WebSocketSession session, CloseStatus status) {
            (contexts.require(session.getAttributes()).checkAccess() ? closedInsideContext : closedOutsideContext)
                    .incrementAndGet();
        }

        @Override
        public void close() {
            pool.shutdownNow();
        }
    }
}
