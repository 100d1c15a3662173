package com.example.liveflux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.example.live.Board;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * The WebFlux example of autoconfigure/docs/live-channels.md's "On WebFlux" ({@link BoardStream}, shown verbatim; the
 * README's block is checked by {@code ReadmeJavaBlocksTest}) works as it says on Reactor Netty: a tab gets a
 * snapshot, then every change in order.
 */
@OnRandomPort(classes = LiveFluxReadmeExampleTest.App.class,
        properties = {"spring.main.web-application-type=reactive", "server.shutdown=immediate"})
class LiveFluxReadmeExampleTest {

    @Test
    void aTabGetsTheSnapshotThenEveryChangeInOrder(Browser tab) throws Exception {
        assertThat(tab.post("/board/increment").body()).isEqualTo("{\"counter\":1}"); // opens the session
        HttpResponse<InputStream> stream = tab.send(tab.request("/board/events").header("Accept", "text/event-stream")
                .timeout(Duration.ofSeconds(30)), HttpResponse.BodyHandlers.ofInputStream());
        assertThat(stream.statusCode()).isEqualTo(200);
        List<String> events = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> read(stream.body(), events), "example-tab");
        reader.setDaemon(true);
        reader.start();
        try {
            await().atMost(Duration.ofSeconds(10)).until(() -> !events.isEmpty());
            assertThat(events.get(0)).isEqualTo("snapshot {\"counter\":1}");
            for (int i = 2; i <= 50; i++) {
                assertThat(tab.post("/board/increment").statusCode()).isEqualTo(200);
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> events.contains("board {\"counter\":50}"));
            List<Long> counters = events.stream().map(e -> Long.parseLong(e.replaceAll("\\D", ""))).toList();
            assertThat(counters).as("in order, each once (coalescing may skip, never repeat)").isSorted()
                    .doesNotHaveDuplicates();
        } finally {
            stream.body().close();
        }
    }

    /** Each event as {@code "<event> <data>"}. */
    private static void read(InputStream body, List<String> events) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
            String event = null;
            for (String line; (line = lines.readLine()) != null; ) {
                if (line.startsWith("event:")) {
                    event = line.substring(6);
                } else if (line.startsWith("data:") && event != null) {
                    events.add(event + " " + line.substring(5));
                }
            }
        } catch (IOException closed) {
            // the test closed the stream
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({Board.class, BoardStream.class})
    static class App {
    }
}
