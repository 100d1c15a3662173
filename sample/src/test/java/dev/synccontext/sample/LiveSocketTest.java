package dev.synccontext.sample;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * The board's WebSocket live channel ({@code /api/live}) with the JDK's WebSocket client: frames from
 * two sockets of one session and POSTs of the same session all change one board, on the session's
 * context, and none is lost; the channel belongs to an HTTP session and ends with it.
 */
@SampleServerTest
class LiveSocketTest {

    static final Duration WAIT = Duration.ofSeconds(60);

    @LocalServerPort
    int port;

    @Test
    void socketFramesAndHttpPostsOfOneSessionAllCountExactly() throws Exception {
        BoardClient client = new BoardClient(port);
        assertThat(client.get("/api/board").status()).isEqualTo(200);
        Socket left = Socket.open(port, client.sessionId());
        Socket right = Socket.open(port, client.sessionId());
        int framesPerSender = 250;
        int posts = 100;
        ExecutorService pool = Executors.newFixedThreadPool(5);
        try {
            CyclicBarrier start = new CyclicBarrier(5);
            List<Future<?>> all = new ArrayList<>();
            for (Socket socket : List.of(left, left, right, right)) {
                all.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < framesPerSender; i++) {
                        socket.send("{\"action\":\"increment\"}");
                    }
                    return null;
                }));
            }
            all.add(pool.submit(() -> {
                start.await();
                for (int i = 0; i < posts; i++) {
                    assertThat(client.post("/api/counter/increment").status()).isEqualTo(200);
                }
                return null;
            }));
            for (Future<?> f : all) {
                f.get(2, java.util.concurrent.TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        long total = 4L * framesPerSender + posts;
        await().atMost(WAIT).until(() -> left.counter.get() == total && right.counter.get() == total);
        assertThat(BoardClient.JSON.readTree(client.get("/api/board").body()).get("counter").asLong())
                .as("%d socket frames and %d POSTs, all on the session's context", 4 * framesPerSender, posts)
                .isEqualTo(total);
        assertThat(BoardClient.JSON.readTree(client.get("/api/board").body()).get("subscribers").asInt())
                .as("both sockets count as open tabs").isEqualTo(2);

        assertThat(client.delete("/api/session").status()).isEqualTo(204);
        for (Socket socket : List.of(left, right)) {
            assertThat(socket.ended.get(30, SECONDS)).as("the ended message").isNotBlank();
            socket.closed.get(30, SECONDS);
        }
    }

    @Test
    void anUnknownActionIsAnsweredWithAnErrorAndChangesNothing() throws Exception {
        BoardClient client = new BoardClient(port);
        client.get("/api/board");
        Socket socket = Socket.open(port, client.sessionId());
        socket.send("{\"action\":\"explode\"}");
        assertThat(socket.error.get(30, SECONDS)).contains("Unknown action 'explode'");
        assertThat(BoardClient.JSON.readTree(client.get("/api/board").body()).get("counter").asLong()).isZero();
        socket.socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(30, SECONDS);
    }

    @Test
    void aHandshakeWithoutASessionIsRefusedWith410() {
        Throwable refused = catchThrowable(() -> Socket.open(port, null));
        assertThat(refused).cause().isInstanceOf(WebSocketHandshakeException.class);
        WebSocketHandshakeException handshake = (WebSocketHandshakeException) refused.getCause();
        assertThat(handshake.getResponse().statusCode()).as("GET /api/board starts a session; this never does")
                .isEqualTo(410);
    }

    /** One tab's socket: keeps the counter of the newest board it was sent. */
    static final class Socket implements WebSocket.Listener {
        final AtomicLong counter = new AtomicLong(-1);
        final CompletableFuture<String> ended = new CompletableFuture<>();
        final CompletableFuture<String> error = new CompletableFuture<>();
        final CompletableFuture<Void> closed = new CompletableFuture<>();
        private final StringBuilder partial = new StringBuilder();
        private long version = -1;
        WebSocket socket;

        static Socket open(int port, String sessionId) throws Exception {
            Socket listener = new Socket();
            WebSocket.Builder builder = HttpClient.newHttpClient().newWebSocketBuilder();
            if (sessionId != null) {
                builder.header("Cookie", "JSESSIONID=" + sessionId);
            }
            listener.socket = builder.buildAsync(URI.create("ws://127.0.0.1:" + port + "/api/live"), listener)
                    .get(30, SECONDS);
            return listener;
        }

        synchronized void send(String text) throws Exception {
            socket.sendText(text, true).get(30, SECONDS);
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            partial.append(data);
            if (last) {
                JsonNode message = BoardClient.JSON.readTree(partial.toString());
                partial.setLength(0);
                switch (message.get("type").asString()) {
                    case "board" -> {
                        JsonNode board = message.get("board");
                        if (board.get("version").asLong() > version) {
                            version = board.get("version").asLong();
                            counter.set(board.get("counter").asLong());
                        }
                    }
                    case "ended" -> ended.complete(message.get("reason").asString());
                    case "error" -> error.complete(message.get("detail").asString());
                    default -> throw new AssertionError("unexpected message " + message);
                }
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            closed.complete(null);
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable failure) {
            closed.completeExceptionally(failure);
        }
    }
}
