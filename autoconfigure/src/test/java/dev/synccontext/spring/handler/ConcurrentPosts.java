package dev.synccontext.spring.handler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.testing.Browser;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Requests of one session in flight at once over HTTP, for the tests of either web stack: the race a session's
 * context must close is between such requests.
 */
public final class ConcurrentPosts {

    private ConcurrentPosts() {
    }

    /** A POST of {@code path} without a body, with the browser's session cookie. */
    public static HttpRequest.Builder post(Browser browser, String path) {
        return browser.request(path).POST(HttpRequest.BodyPublishers.noBody());
    }

    /** Sends {@code request} without waiting for its answer. */
    public static CompletableFuture<HttpResponse<String>> send(Browser browser, HttpRequest.Builder request) {
        return browser.httpClient().sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Sends {@code count} POSTs of {@code path} at once; their answers, once all have come (two minutes at most). */
    public static List<HttpResponse<String>> postAll(Browser browser, int count, String path) {
        List<CompletableFuture<HttpResponse<String>>> all = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            all.add(send(browser, post(browser, path)));
        }
        return join(all);
    }

    /** The answers, once all have come (two minutes at most). */
    public static List<HttpResponse<String>> join(List<CompletableFuture<HttpResponse<String>>> all) {
        CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).orTimeout(120, TimeUnit.SECONDS).join();
        return all.stream().map(CompletableFuture::join).toList();
    }

    /**
     * Sends {@code perThread} POSTs of {@code path} one after another from each of {@code threads} threads at once,
     * and checks that each answered 200.
     */
    public static void postFromThreads(Browser browser, int threads, int perThread, String path) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> all = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                all.add(pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        HttpResponse<String> response = browser.post(path);
                        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
                    }
                }));
            }
            for (Future<?> each : all) {
                each.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Sends {@code count} POSTs of {@code <prefix>/increment} (an {@link OverlapTally} increment) at once, and checks
     * that each answered 200 with a count of its own and that {@code <prefix>/tally} counts all of them, never two at
     * once.
     */
    public static void assertIncrementsRunOneAtATime(Browser browser, int count, String prefix) {
        List<HttpResponse<String>> replies = postAll(browser, count, prefix + "/increment");
        assertThat(replies).allSatisfy(reply -> assertThat(reply.statusCode()).as(reply.body()).isEqualTo(200));
        assertThat(replies).extracting(HttpResponse::body).as("each request saw its own count").doesNotHaveDuplicates();
        assertThat(browser.get(prefix + "/tally").body()).isEqualTo(count + " max-inside 1");
    }
}
