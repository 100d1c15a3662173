package com.example.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.testing.Browser;
import dev.synccontext.testing.SseDecoder;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/**
 * A tab of the live board examples (MVC and WebFlux): its event stream ({@code /board/events}), read on its own
 * thread, each event as {@code "<event> <data>"}. Not part of the README's example.
 */
public final class BoardTab implements AutoCloseable {

    private static final Duration WAIT = Duration.ofSeconds(10);

    /** Every event so far. */
    public final List<String> events = new CopyOnWriteArrayList<>();
    /** Counted down when the stream ends. */
    public final CountDownLatch end = new CountDownLatch(1);
    private final InputStream body;

    private BoardTab(InputStream body) {
        this.body = body;
        Thread reader = new Thread(this::read, "example-tab");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Opens {@code tab}'s session with its first increment, then its event stream, and asserts what the example
     * promises: the snapshot first, then the changes up to {@code changes} (the test's increments) in order, each
     * once (coalescing may skip one, never repeat it). Closes the stream if an assertion fails.
     */
    public static BoardTab openAndIncrement(Browser tab, int changes) throws Exception {
        assertThat(tab.post("/board/increment").body()).isEqualTo("{\"counter\":1}"); // opens the session
        HttpResponse<InputStream> stream = tab.send(tab.request("/board/events").header("Accept", "text/event-stream")
                .timeout(Duration.ofSeconds(30)), HttpResponse.BodyHandlers.ofInputStream());
        assertThat(stream.statusCode()).isEqualTo(200);
        BoardTab board = new BoardTab(stream.body());
        try {
            await().atMost(WAIT).until(() -> !board.events.isEmpty());
            assertThat(board.events.get(0)).isEqualTo("snapshot {\"counter\":1}");
            for (int i = 2; i <= changes; i++) {
                assertThat(tab.post("/board/increment").statusCode()).isEqualTo(200);
            }
            await().atMost(WAIT).until(() -> board.events.contains("board {\"counter\":" + changes + "}"));
            List<Long> counters = board.events.stream().map(e -> Long.parseLong(e.replaceAll("\\D", ""))).toList();
            assertThat(counters).as("in order, each once (coalescing may skip, never repeat)").isSorted()
                    .doesNotHaveDuplicates();
            return board;
        } catch (Throwable failed) {
            board.close();
            throw failed;
        }
    }

    private void read() {
        try (InputStream stream = body) {
            SseDecoder.read(stream, (id, name, data, length, now) ->
                    events.add(name + " " + new String(data, 0, length, StandardCharsets.UTF_8)));
        } catch (IOException closed) {
            // the test is over
        } finally {
            end.countDown();
        }
    }

    /** Closes the stream on the client's side. */
    @Override
    public void close() throws IOException {
        body.close();
    }
}
