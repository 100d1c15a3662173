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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * The board's WebSocket live channel ({@code /api/live}) with the JDK's WebSocket client: frames from
 * two sockets of one session and POSTs of the same session all change one board, on the session's
 * context, and none is lost; the channel belongs to an HTTP session and ends with it. Frames from the
 * server are the library's ({@code {"id":…,"event":…,"snapshot":…,"data":…}}).
 */
@SampleServerTest
class LiveSocketTest {

    static final Duration WAIT = Duration.ofSeconds(60);

    @LocalServerPort
    int port;

    @Test
    void socketFramesAndHttpPostsOfOneSessionAllCountExactly(BoardClient client) throws Exception {
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
    void anUnknownActionIsAnsweredToItsSocketAloneInOrderWithTheBoardsAndChangesNothing(BoardClient client)
            throws Exception {
        client.get("/api/board");
        Socket socket = Socket.open(port, client.sessionId());
        Socket otherTab = Socket.open(port, client.sessionId());
        await().atMost(WAIT).until(() -> socket.subscribers.get() == 2 && otherTab.subscribers.get() == 2);
        socket.send("{\"action\":\"explode\"}");
        assertThat(socket.error.get(30, SECONDS)).contains("Unknown action 'explode'");
        assertThat(client.post("/api/counter/increment").counter()).as("nothing changed before").isOne();
        await().atMost(WAIT).until(() -> socket.counter.get() == 1 && otherTab.counter.get() == 1);
        assertThat(otherTab.error).as("the other tab is not answered").isNotDone();
        assertThat(socket.events).as("the refusal travels through the tab's own buffer, among its boards")
                .containsSubsequence("board", "error", "board");
        socket.socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(30, SECONDS);
        otherTab.socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(30, SECONDS);
        await().atMost(WAIT).until(() -> client.get("/api/board").json().get("subscribers").asInt() == 0);
    }

    @Test
    void aReconnectWithTheLastIdItSawResumesAfterItNotWithASnapshot(BoardClient client) throws Exception {
        client.get("/api/board");
        Socket first = Socket.open(port, client.sessionId());
        await().atMost(WAIT).until(() -> first.counter.get() == 0 && first.lastId != null);
        first.socket.sendClose(WebSocket.NORMAL_CLOSURE, "away").get(30, SECONDS);
        first.closed.get(30, SECONDS);
        String seen = first.lastId;
        assertThat(client.post("/api/counter/increment").counter()).isOne();
        assertThat(client.post("/api/counter/increment").counter()).isEqualTo(2);

        Socket again = Socket.open(port, client.sessionId(), seen);
        await().atMost(WAIT).until(() -> again.counter.get() == 2);
        assertThat(again.snapshots.get()).as("resumed from the replay buffer: no snapshot").isZero();
        // What it missed goes into its buffer at once, where boards coalesce by key: it may see only the latest.
        assertThat(again.counters).as("the missed changes, in order, ending with the last").endsWith(2L)
                .isSorted();
        assertThat(EventStream.epoch(again.firstId)).as("the same channel").isEqualTo(EventStream.epoch(seen));
        assertThat(EventStream.sequence(again.firstId)).as("after the last id it saw, no duplicate")
                .isGreaterThan(EventStream.sequence(seen));
        again.socket.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(30, SECONDS);
    }

    @Test
    void aHandshakeWithoutASessionIsRefusedWith410() {
        Throwable refused = catchThrowable(() -> Socket.open(port, null));
        assertThat(refused).cause().isInstanceOf(WebSocketHandshakeException.class);
        WebSocketHandshakeException handshake = (WebSocketHandshakeException) refused.getCause();
        assertThat(handshake.getResponse().statusCode()).as("GET /api/board starts a session; this never does")
                .isEqualTo(410);
    }

    /** One tab's socket: keeps the counter of the newest board it was sent, and what else it was told. */
    static final class Socket implements WebSocket.Listener {
        final AtomicLong counter = new AtomicLong(-1);
        final AtomicInteger subscribers = new AtomicInteger(-1);
        final AtomicInteger snapshots = new AtomicInteger();
        final List<String> events = new CopyOnWriteArrayList<>();
        final List<Long> counters = new CopyOnWriteArrayList<>();
        volatile String firstId;
        volatile String lastId;
        final CompletableFuture<String> ended = new CompletableFuture<>();
        final CompletableFuture<String> error = new CompletableFuture<>();
        final CompletableFuture<Void> closed = new CompletableFuture<>();
        private final StringBuilder partial = new StringBuilder();
        private long version = -1;
        WebSocket socket;

        static Socket open(int port, String sessionId) throws Exception {
            return open(port, sessionId, null);
        }

        /** Opens a socket that resumes after {@code lastEventId} ({@code null}: a first connect). */
        static Socket open(int port, String sessionId, String lastEventId) throws Exception {
            Socket listener = new Socket();
            WebSocket.Builder builder = HttpClient.newHttpClient().newWebSocketBuilder();
            if (sessionId != null) {
                builder.header("Cookie", "JSESSIONID=" + sessionId);
            }
            String resume = lastEventId == null ? "" : "?lastEventId=" + lastEventId;
            listener.socket = builder.buildAsync(URI.create("ws://127.0.0.1:" + port + "/api/live" + resume), listener)
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
                String event = message.get("event").asString();
                events.add(event);
                if (firstId == null) {
                    firstId = message.get("id").asString();
                }
                lastId = message.get("id").asString();
                JsonNode payload = message.get("data");
                switch (event) {
                    case "board" -> {
                        if (message.get("snapshot").asBoolean()) {
                            snapshots.incrementAndGet();
                        }
                        counters.add(payload.get("counter").asLong());
                        if (payload.get("version").asLong() > version) {
                            version = payload.get("version").asLong();
                            subscribers.set(payload.get("subscribers").asInt());
                            counter.set(payload.get("counter").asLong());
                        }
                    }
                    case "ended" -> ended.complete(payload.asString());
                    case "error" -> error.complete(payload.get("detail").asString());
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
