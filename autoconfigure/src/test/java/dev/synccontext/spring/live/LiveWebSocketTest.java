package dev.synccontext.spring.live;


import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.live.CloseReason;
import dev.synccontext.live.LiveChannel;
import dev.synccontext.live.LiveSubscriber;
import dev.synccontext.live.OverflowPolicy;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.testing.OnRandomPort;
import dev.synccontext.testing.StalledSocket;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.web.socket.CloseStatus;
import org.springframework.web.socket.WebSocketSession;
import org.springframework.web.socket.config.annotation.EnableWebSocket;
import org.springframework.web.socket.config.annotation.WebSocketConfigurer;
import org.springframework.web.socket.config.annotation.WebSocketHandlerRegistry;
import org.springframework.web.socket.handler.TextWebSocketHandler;

/**
 * The WebSocket transport over real Tomcat: a healthy client gets every frame in order; a raw-socket client
 * that never reads costs its bounded buffer, never the context, and is ended by the send timeout; garbage
 * and a handshake that never completes are closed.
 */
@OnRandomPort(classes = LiveWebSocketTest.App.class, properties = {
        "synccontext.live.policy=drop-oldest", "synccontext.live.buffer-capacity=16",
        "synccontext.live.send-timeout=2s", "synccontext.blocked-threshold=500ms",
        "server.tomcat.connection-timeout=2s", "server.shutdown=immediate"})
class LiveWebSocketTest {

    private static final Duration GENEROUS = Duration.ofSeconds(10);

    @LocalServerPort
    int port;

    @Autowired
    App app;

    @Test
    void aHealthyClientGetsEveryFrameInOrderAndAStalledOneNeverBlocksTheContext() throws Exception {
        List<String> frames = new CopyOnWriteArrayList<>();
        WebSocket healthy = HttpClient.newHttpClient().newWebSocketBuilder()
                .buildAsync(URI.create("ws://localhost:" + port + "/live-ws"), new Collecting(frames)).get(10, TimeUnit.SECONDS);
        try {
            await().atMost(GENEROUS).until(() -> app.live.subscribers().size() == 1 && !frames.isEmpty());
            // Counted from here, before the stalled client connects: the first subscription (class loading, first
            // use of the channel and the WebSocket transport) can itself outlast the 500 ms threshold on a loaded
            // machine. The no-op callback waits until that subscription's callback has returned.
            app.context.invokeAsync(() -> { }).get(10, TimeUnit.SECONDS);
            long blockedBefore = app.context.blockedCallbackCount();
            try (StalledSocket stalled = StalledSocket.webSocket(port, "/live-ws")) {
                await().atMost(GENEROUS).until(() -> app.live.subscribers().size() == 2);
                List<LiveSubscriber> both = app.live.subscribers();
                String pad = "y".repeat(8000);
                for (int i = 1; i <= 2_000; i++) {
                    int n = i;
                    CompletableFuture<Void> published = app.context.invokeAsync(() -> app.live.publish("tick", "tick",
                            new LiveBoardApp.State(n, pad)));
                    published.get(5, TimeUnit.SECONDS); // a publish never waits for a socket
                    if (n % 10 == 0) {
                        // pace the healthy client so that its own buffer (16) never overflows: it must get every frame
                        await().atMost(GENEROUS).pollInterval(Duration.ofMillis(2))
                                .until(() -> !frames.isEmpty() && sequence(frames.get(frames.size() - 1)) == n);
                    }
                }
                assertThat(RendererSyncContext.blockedCallbacks()).isEmpty();
                assertThat(app.context.blockedCallbackCount() - blockedBefore)
                        .as("the watchdog never saw the context blocked once the stalled client was there").isZero();
                long last = app.live.lastSequence();
                await().atMost(GENEROUS)
                        .until(() -> !frames.isEmpty() && sequence(frames.get(frames.size() - 1)) == last);
                List<Long> seen = frames.stream().map(LiveWebSocketTest::sequence).toList();
                assertThat(seen).as("the healthy client: the snapshot, then every frame once, in order")
                        .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(0, last).boxed().toList());
                // the stalled client: bounded, then ended by the send timeout
                await().atMost(Duration.ofSeconds(20)).until(() -> app.live.subscribers().size() == 1);
                LiveSubscriber slow = both.stream().filter(subscriber -> !subscriber.isOpen()).findFirst()
                        .orElseThrow();
                assertThat(slow.closeReason()).isEqualTo(CloseReason.GONE);
                assertThat(slow.highWater()).as("its buffer never exceeded its capacity").isLessThanOrEqualTo(16);
                assertThat(slow.dropped()).as("what did not fit was dropped, counted").isPositive();
            }
        } finally {
            healthy.abort();
        }
    }

    @Test
    void garbageOnTheSocketAndAHandshakeThatNeverCompletesAreClosed() throws Exception {
        try (Socket garbage = connect()) {
            garbage.getOutputStream().write("\u0000\u0001GARBAGE \r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            assertThat(readsToEnd(garbage)).as("answered (400) and closed").isTrue();
        }
        try (Socket halfHandshake = connect()) {
            halfHandshake.getOutputStream().write(("GET /live-ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1)); // and never the rest
            assertThat(readsToEnd(halfHandshake)).as("closed by the connection timeout").isTrue();
        }
        assertThat(app.live.subscribers()).as("neither became a subscriber").isEmpty();
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("localhost", port), 5_000);
        socket.setSoTimeout(15_000);
        return socket;
    }

    private static boolean readsToEnd(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        byte[] chunk = new byte[1024];
        try {
            while (in.read(chunk) >= 0) {
                // discard what the server answers before it closes
            }
            return true;
        } catch (SocketTimeoutException stillOpen) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    private static final Pattern ID = Pattern.compile("\"id\":\"[^\"]*-(\\d+)\"");

    private static long sequence(String frame) {
        Matcher id = ID.matcher(frame);
        assertThat(id.find()).as("frame %s has an id", frame).isTrue();
        return Long.parseLong(id.group(1));
    }

    /** Collects whole text frames. */
    record Collecting(List<String> frames, StringBuilder partial) implements WebSocket.Listener {
        Collecting(List<String> frames) {
            this(frames, new StringBuilder());
        }

        @Override
        public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                frames.add(partial.toString());
                partial.setLength(0);
            }
            socket.request(1);
            return null;
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableWebSocket
    static class App implements WebSocketConfigurer {

        final RendererSyncContext context;
        final LiveChannel live;
        private final LiveWebSocket transports;

        App(SyncContextRegistry registry, LiveChannels channels, LiveWebSocket transports) {
            this.context = registry.forKey("ws-board");
            this.live = channels.builder("ws-board", "websocket").policy(OverflowPolicy.DROP_OLDEST)
                    .build(() -> new LiveBoardApp.State(0, ""));
            this.transports = transports;
        }

        @Override
        public void registerWebSocketHandlers(WebSocketHandlerRegistry registry) {
            registry.addHandler(new TextWebSocketHandler() {
                @Override
                public void afterConnectionEstablished(WebSocketSession session) {
                    context.invokeAsync(() -> session.getAttributes().put("tab", live.subscribe(transports.transport(session))));
                }

                @Override
                public void afterConnectionClosed(WebSocketSession session, CloseStatus status) {
                    context.invokeAsync(() -> {
                        LiveSubscriber tab = (LiveSubscriber) session.getAttributes().get("tab");
                        if (tab != null) {
                            tab.cancel();
                        }
                    });
                }
            }, "/live-ws");
        }
    }
}
