package dev.synccontext.bench.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse.BodyHandlers;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The load script's app over real HTTP: concurrent requests of the same sessions lose no increment when
 * they go through the session's context or the session mutex, and a request without a session is told why.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class CounterApplicationTest {

    private static final int SESSIONS = 4;
    private static final int THREADS = 8;
    private static final int REQUESTS_PER_THREAD = 40;

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void theContextAndTheMutexLoseNoIncrementUnderConcurrentRequestsOfOneSession() throws Exception {
        List<String> cookies = new ArrayList<>();
        for (int i = 0; i < SESSIONS; i++) {
            var started = http.send(post("/counter/session", null), BodyHandlers.ofString());
            assertThat(started.statusCode()).isEqualTo(200);
            cookies.add("JSESSIONID=" + started.body());
        }
        ExecutorService callers = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                done.add(callers.submit(() -> {
                    for (int r = 0; r < REQUESTS_PER_THREAD; r++) {
                        String cookie = cookies.get((thread + r) % SESSIONS);
                        for (String way : List.of("context", "synchronized", "annotated")) {
                            var reply = http.send(post("/counter/" + way, cookie), BodyHandlers.ofString());
                            assertThat(reply.statusCode()).as("%s: %s", way, reply.body()).isEqualTo(200);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            callers.shutdownNow();
        }
        String audit = http.send(HttpRequest.newBuilder(uri("/counter/audit")).build(), BodyHandlers.ofString()).body();
        long expected = (long) THREADS * REQUESTS_PER_THREAD;
        assertThat(audit).as("audit").contains("\"context\":{\"requests\":" + expected + ",\"counted\":" + expected + "}")
                .contains("\"synchronized\":{\"requests\":" + expected + ",\"counted\":" + expected + "}")
                .contains("\"annotated\":{\"requests\":" + expected + ",\"counted\":" + expected + "}");
    }

    @Test
    void aCounterRequestWithoutASessionIs400() throws Exception {
        var reply = http.send(post("/counter/context", null), BodyHandlers.ofString());
        assertThat(reply.statusCode()).isEqualTo(400);
    }

    private HttpRequest post(String path, String cookie) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).POST(BodyPublishers.noBody());
        return cookie == null ? request.build() : request.header("Cookie", cookie).build();
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }
}
