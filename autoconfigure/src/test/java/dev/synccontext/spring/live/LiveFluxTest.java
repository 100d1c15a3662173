package dev.synccontext.spring.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.live.CloseReason;
import dev.synccontext.live.LiveSubscriber;
import dev.synccontext.spring.live.LiveFluxBoardApp.Board;
import dev.synccontext.spring.live.LiveFluxBoardApp.Boards;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import dev.synccontext.testing.SseClient;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Live channels on WebFlux over real Reactor Netty and {@code java.net.http} clients: a tab's snapshot and
 * changes in order, resume with {@code Last-Event-ID} ({@link SseResumeContract}), the going-away event, the
 * meters. Same settings as {@link LiveFluxStalledTabTest}, so both share one application.
 */
@OnRandomPort(classes = LiveFluxBoardApp.class,
        properties = {"spring.main.web-application-type=reactive", "synccontext.live.policy=drop-oldest",
                "synccontext.live.buffer-capacity=32", "synccontext.live.replay-capacity=100",
                "server.shutdown=immediate"})
class LiveFluxTest extends SseResumeContract {

    static final Duration GENEROUS = Duration.ofSeconds(10);

    @Autowired
    Boards boards;

    @Autowired
    MeterRegistry meters;

    @Test
    void aTabGetsASnapshotThenEveryChangeInOrderOnAnEventStream(Browser tab) throws Exception {
        Board board = newBoard(tab, boards);
        HttpResponse<String> headers;
        try (SseClient client = new SseClient(tab.httpClient(), tab.uri("/events"), null, null)) {
            await().atMost(GENEROUS).until(() -> client.events.size() == 1);
            change(tab, 5, 0);
            await().atMost(GENEROUS).until(() -> client.events.size() == 6);
            assertThat(client.events.get(0).event()).isEqualTo("snapshot");
            assertThat(client.events.get(0).data()).isEqualTo("{\"counter\":0,\"pad\":\"\"}");
            assertThat(client.events.get(0).id()).isEqualTo(board.live.epoch() + "-0");
            assertThat(client.events.subList(1, 6)).allSatisfy(event -> assertThat(event.event()).isEqualTo("board"));
            assertThat(client.sequences()).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
            assertThat(client.last().data()).isEqualTo("{\"counter\":5,\"pad\":\"\"}");
            assertThat(meters.get("synccontext.live.subscribers").tag("scope", "session").gauge().value())
                    .as("the session scope's open subscribers").isGreaterThanOrEqualTo(1);
            assertThat(meters.get("synccontext.live.written").tag("scope", "session").functionCounter().count())
                    .isGreaterThanOrEqualTo(6);
        }
        CompletableFuture<HttpResponse<java.io.InputStream>> stream = tab.httpClient().sendAsync(
                tab.request("/events").header("Accept", "text/event-stream").build(),
                HttpResponse.BodyHandlers.ofInputStream());
        HttpResponse<java.io.InputStream> response = stream.get(10, TimeUnit.SECONDS);
        try {
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).get().asString().startsWith("text/event-stream");
            assertThat(response.headers().firstValue("Cache-Control")).contains("no-cache, no-transform");
            assertThat(response.headers().firstValue("X-Accel-Buffering")).contains("no");
        } finally {
            response.body().close();
        }
    }

    @Test
    void aSubscriberToldToGoAwayGetsTheGoingAwayEventLastThenItsStreamEnds(Browser tab) throws Exception {
        Board board = newBoard(tab, boards);
        change(tab, 2, 0);
        CompletableFuture<HttpResponse<String>> whole = tab.httpClient().sendAsync(
                tab.request("/events?tab=leaving").header("Accept", "text/event-stream").build(),
                HttpResponse.BodyHandlers.ofString());
        await().atMost(GENEROUS).until(() -> board.tabs.containsKey("leaving"));
        LiveSubscriber subscriber = board.tabs.get("leaving");
        await().atMost(GENEROUS).until(() -> subscriber.written() == 1);
        subscriber.goAway(); // what the shutdown drain does to every subscriber

        HttpResponse<String> ended = whole.get(10, TimeUnit.SECONDS);
        String id = board.live.epoch() + "-2";
        assertThat(ended.body()).as("the snapshot, then the going-away (no id: Last-Event-ID stays the snapshot's)")
                .isEqualTo("id:" + id + "\nevent:snapshot\ndata:{\"counter\":2,\"pad\":\"\"}\n\n"
                        + "event:going-away\ndata:{\"reconnect\":true}\n\n");
        assertThat(subscriber.closeReason()).isEqualTo(CloseReason.GOING_AWAY);
        assertThat(board.live.subscribers()).isEmpty();
    }

    @Test
    void aTabThatLeavesEndsItsSubscriberAsGone(Browser tab) throws Exception {
        Board board = newBoard(tab, boards);
        try (SseClient client = new SseClient(tab.httpClient(), tab.uri("/events?tab=left"), null, null)) {
            await().atMost(GENEROUS).until(() -> client.events.size() == 1);
        }
        await().atMost(GENEROUS).until(() -> board.live.subscribers().isEmpty());
        assertThat(board.tabs.get("left").closeReason()).isEqualTo(CloseReason.GONE);
    }

    @Override
    CountingBoard newSessionBoard(Browser tab) {
        return newBoard(tab, boards);
    }

    @Override
    void change(Browser tab, int times) {
        change(tab, times, 0);
    }

    @Override
    void awaitTabGone(Browser tab, CountingBoard board) {
        await().atMost(GENEROUS).until(() -> board.live.subscribers().isEmpty());
    }

    static void change(Browser tab, int times, int size) {
        HttpResponse<String> answer = tab.send(tab.request("/change?times=" + times + "&size=" + size)
                .POST(HttpRequest.BodyPublishers.noBody()).timeout(GENEROUS));
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    }

    /** The board of a new session: the first change creates both. */
    static Board newBoard(Browser tab, Boards boards) {
        int before = boards.all.size();
        change(tab, 0, 0);
        assertThat(boards.all).hasSize(before + 1);
        return boards.all.get(before);
    }
}
