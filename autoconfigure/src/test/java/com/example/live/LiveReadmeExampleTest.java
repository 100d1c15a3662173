package com.example.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The "Live channels" example of autoconfigure/docs/live-channels.md cannot rot: the files it shows are this package's
 * sources, shown verbatim, and the application they make works as the README says: a tab gets a snapshot,
 * then every change in order, and an {@code ended} event when its session ends.
 */
@OnRandomPort(classes = LiveBoardApplication.class)
@Import(LiveReadmeExampleTest.SessionEnd.class)
class LiveReadmeExampleTest {

    private static final Pattern FILE_BLOCK = Pattern.compile("<!-- file: (\\S+) -->\\n```java\\n(.*?)```", Pattern.DOTALL);
    private static final Path REPOSITORY = Path.of("..").toAbsolutePath().normalize();

    @Test
    void theReadmeShowsThisExampleVerbatim() throws IOException {
        String readme = Files.readString(REPOSITORY.resolve("autoconfigure/docs/live-channels.md"));
        Map<String, String> shown = new LinkedHashMap<>();
        Matcher matcher = FILE_BLOCK.matcher(readme);
        String here = "autoconfigure/src/test/java/com/example/live/";
        while (matcher.find()) {
            if (matcher.group(1).startsWith(here)) { // the README shows other parts' examples too
                shown.put(matcher.group(1), matcher.group(2));
            }
        }
        assertThat(shown).as("files of this example the README shows")
                .containsOnlyKeys(here + "Board.java", here + "BoardController.java");
        shown.forEach((file, code) -> {
            try {
                assertThat(code).as("README's copy of %s (update the README when the file changes)", file)
                        .isEqualTo(Files.readString(REPOSITORY.resolve(file)));
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        });
    }

    @Test
    void aTabGetsTheSnapshotThenEveryChangeInOrderThenEndedWhenItsSessionEnds(Browser tab) throws Exception {
        assertThat(tab.post("/board/increment").body()).isEqualTo("{\"counter\":1}"); // opens the session
        HttpResponse<InputStream> stream = tab.send(tab.request("/board/events").header("Accept", "text/event-stream")
                .timeout(Duration.ofSeconds(30)), HttpResponse.BodyHandlers.ofInputStream());
        assertThat(stream.statusCode()).isEqualTo(200);
        Events events = new Events(stream.body());
        await().atMost(Duration.ofSeconds(10)).until(() -> !events.all.isEmpty());
        assertThat(events.all.get(0)).isEqualTo("snapshot {\"counter\":1}");

        for (int i = 2; i <= 100; i++) {
            assertThat(tab.post("/board/increment").statusCode()).isEqualTo(200);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> events.all.contains("board {\"counter\":100}"));
        List<Long> counters = events.all.stream().map(e -> Long.parseLong(e.replaceAll("\\D", ""))).toList();
        assertThat(counters).as("in order, each once (coalescing may skip, never repeat)").isSorted()
                .doesNotHaveDuplicates();

        assertThat(tab.delete("/session").statusCode()).isEqualTo(204);
        assertThat(events.end.await(10, TimeUnit.SECONDS)).as("the stream ends").isTrue();
        assertThat(events.all.get(events.all.size() - 1)).isEqualTo("ended \"The session ended.\"");
    }

    /** Lets the test end a session (not part of the README's example). */
    @RestController
    static class SessionEnd {
        @DeleteMapping("/session")
        org.springframework.http.ResponseEntity<Void> end(HttpServletRequest request) {
            HttpSession session = request.getSession(false);
            if (session != null) {
                session.invalidate();
            }
            return org.springframework.http.ResponseEntity.noContent().build();
        }
    }

    /** A tab's event stream: "event data" per event, read on its own thread. */
    static final class Events {
        final List<String> all = new CopyOnWriteArrayList<>();
        final CountDownLatch end = new CountDownLatch(1);

        Events(InputStream body) {
            Thread reader = new Thread(() -> {
                try (BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
                    String event = "message";
                    StringBuilder data = new StringBuilder();
                    for (String line; (line = lines.readLine()) != null; ) {
                        if (line.isEmpty()) {
                            all.add(event + " " + data);
                            event = "message";
                            data.setLength(0);
                        } else if (line.startsWith("event:")) {
                            event = line.substring(6);
                        } else if (line.startsWith("data:")) {
                            data.append(line.substring(5));
                        }
                    }
                } catch (IOException closed) {
                    // the test is over
                } finally {
                    end.countDown();
                }
            }, "readme-tab");
            reader.setDaemon(true);
            reader.start();
        }
    }
}
