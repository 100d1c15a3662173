package dev.synccontext.spring.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.live.CloseReason;
import dev.synccontext.live.LiveSubscriber;
import dev.synccontext.testing.OnRandomPort;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A WebSocket subscriber told to go away (the shutdown drain's {@link LiveSubscriber#goAway()}) is closed with
 * 1001 GOING_AWAY over a real socket, so a browser's client reconnects (to another node) at once.
 */
@OnRandomPort(classes = LiveWebSocketTest.App.class, properties = "server.shutdown=immediate")
class LiveWebSocketGoingAwayTest {

    @LocalServerPort
    int port;

    @Autowired
    LiveWebSocketTest.App app;

    @Test
    void aSubscriberThatGoesAwayIsClosedWith1001() throws Exception {
        List<String> frames = new CopyOnWriteArrayList<>();
        CompletableFuture<Integer> closed = new CompletableFuture<>();
        WebSocket client = HttpClient.newHttpClient().newWebSocketBuilder()
                .buildAsync(URI.create("ws://localhost:" + port + "/live-ws"), new WebSocket.Listener() {
                    @Override
                    public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
                        frames.add(data.toString());
                        socket.request(1);
                        return null;
                    }

                    @Override
                    public CompletionStage<?> onClose(WebSocket socket, int statusCode, String reason) {
                        closed.complete(statusCode);
                        return null;
                    }
                }).get(10, TimeUnit.SECONDS);
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> app.live.subscribers().size() == 1 && !frames.isEmpty());
            LiveSubscriber subscriber = app.live.subscribers().get(0);
            subscriber.goAway();
            assertThat(closed.get(10, TimeUnit.SECONDS)).isEqualTo(1001);
            assertThat(subscriber.closeReason()).isEqualTo(CloseReason.GOING_AWAY);
            assertThat(app.live.subscribers()).isEmpty();
        } finally {
            client.abort();
        }
    }
}
