package com.example.board;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.testing.Browser;
import dev.synccontext.testing.DocExample;
import dev.synccontext.testing.OnRandomPort;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The README's "Use it" example cannot rot: the files it shows are this package's sources (compiled by
 * this build), the README must show them verbatim, and the application they make works as the README
 * says: one session's concurrent increments all count, with no lock in {@link Board}.
 */
@OnRandomPort(classes = BoardApplication.class)
class ReadmeExampleTest {

    @Test
    void theReadmeShowsThisExampleVerbatim() throws IOException {
        DocExample.assertShowsVerbatim("README.md", "starter/src/test/java/com/example/board/", "Board.java",
                "BoardController.java", "BoardApplication.java");
    }

    @Test
    void concurrentIncrementsOfOneSessionAllCount(Browser browser, Browser otherSession) throws Exception {
        assertThat(ok(browser.post("/board/increment"))).isEqualTo("1"); // opens the session
        int threads = 8;
        int perThread = 50;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> clicks = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                clicks.add(pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        ok(browser.post("/board/increment"));
                    }
                    return null;
                }));
            }
            for (Future<?> click : clicks) {
                click.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(ok(browser.get("/board/count"))).as("increments of one session, none lost")
                .isEqualTo(String.valueOf(1 + threads * perThread));
        assertThat(ok(otherSession.post("/board/increment"))).as("another session's own board").isEqualTo("1");
    }

    private static String ok(HttpResponse<String> response) {
        assertThat(response.statusCode()).as("%s: %s", response.request().uri(), response.body()).isEqualTo(200);
        return response.body();
    }
}
