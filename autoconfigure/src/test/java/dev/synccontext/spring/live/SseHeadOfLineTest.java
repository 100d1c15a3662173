package dev.synccontext.spring.live;



import static dev.synccontext.spring.live.OnStalledTabBoard.CAPACITY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.live.LiveBoardApp.Board;
import dev.synccontext.spring.live.LiveBoardApp.Boards;
import dev.synccontext.live.LiveSubscriber;
import dev.synccontext.live.OverflowPolicy;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.SseClient;
import dev.synccontext.testing.StalledSocket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The head-of-line rule over real Tomcat and real sockets: one session, one healthy tab, one tab whose client
 * stopped reading; the board changes 10,000 times (about 10 MB of events, far beyond any socket buffer).
 */
@OnStalledTabBoard
@Tag("scale")
class SseHeadOfLineTest {

    private static final Duration GENEROUS = Duration.ofSeconds(10);

    @LocalServerPort
    int port;

    @Autowired
    Boards boards;

    @Autowired
    LiveChannels channels;

    @Test
    void aStalledTabCostsItsBoundedBufferNeverItsSessionsContextNorItsHealthyTab(Browser tab) throws Exception {
        Board board = boards.newSessionBoard(tab);
        try (SseClient healthy = new SseClient(tab.httpClient(), tab.uri("/events?tab=healthy"), null, null)) {
            await().atMost(GENEROUS).until(() -> board.tabs.containsKey("healthy"));
            // Counted from here, before the stalled tab connects: the first subscription (class loading, first use
            // of the channel and the SSE transport) can itself outlast the 500 ms threshold on a loaded machine.
            // The touch, a callback of its own, runs once that subscription's callback has returned.
            assertThat(tab.get("/touch").statusCode()).isEqualTo(200);
            long blockedBefore = board.context.blockedCallbackCount();
            try (StalledSocket stalledTab = StalledSocket.sse(port, "/events?tab=stalled", tab.cookie("JSESSIONID"))) {
                await().atMost(GENEROUS).until(() -> board.tabs.size() == 2);
                long started = System.nanoTime();
                for (int request = 0; request < 100; request++) {
                    HttpResponse<String> answer = tab.send(tab.request("/change?times=100")
                            .POST(HttpRequest.BodyPublishers.noBody()).timeout(GENEROUS));
                    assertThat(answer.statusCode()).as("change request %d", request).isEqualTo(200);
                    assertThat(RendererSyncContext.blockedCallbacks()).as("no callback blocked").isEmpty();
                }
                long changed = System.nanoTime();
                long last = board.live.lastSequence();
                assertThat(last).isEqualTo(10_000);
                await().atMost(Duration.ofSeconds(30)).until(() -> healthy.last() != null
                        && healthy.last().sequence() == last);

                // Told apart by the tab name their requests gave, not by how much each took: until its socket
                // buffers fill, a stalled tab can take as much as the healthy one (drop-oldest drops from both).
                LiveSubscriber stalled = board.tabs.get("stalled");
                LiveSubscriber fine = board.tabs.get("healthy");
                assertThat(fine.lastWritten()).isEqualTo(last);
                assertThat(stalled.written()).as("the stalled tab's socket buffers filled up: it took a fraction")
                        .isLessThan(last / 2);
                assertThat(stalled.highWater()).as("the stalled tab's buffer never exceeded its capacity")
                        .isLessThanOrEqualTo(CAPACITY);
                assertThat(stalled.dropped()).as("snapshot + 10,000 changes = written + buffered + dropped")
                        .isEqualTo(last + 1 - stalled.written() - stalled.buffered()).isPositive();
                assertThat(stalled.isOpen()).as("drop-oldest keeps a stalled tab connected").isTrue();

                List<Long> seen = healthy.sequences();
                assertThat(seen).as("the healthy tab: strictly increasing").isSorted().doesNotHaveDuplicates();
                assertThat(last + 1 - seen.size()).as("the healthy tab's gaps are its counted drops")
                        .isEqualTo(fine.dropped());
                assertThat(channels.statistics("session").dropped(OverflowPolicy.DROP_OLDEST))
                        .isGreaterThanOrEqualTo(stalled.dropped() + fine.dropped());
                assertThat(board.context.blockedCallbackCount() - blockedBefore)
                        .as("the watchdog never saw the context blocked once the stalled tab was there").isZero();
                System.out.printf("head-of-line: stalled tab written %d, buffered %d (capacity %d), dropped %d;"
                        + " healthy tab got %d events, dropped %d; 100 requests took %d ms, the healthy tab caught up"
                        + " %d ms later%n", stalled.written(), stalled.buffered(), CAPACITY, stalled.dropped(), seen.size(),
                        fine.dropped(), (changed - started) / 1_000_000, (System.nanoTime() - changed) / 1_000_000);
            }
        }
    }

    /** The premise: pushing inside the callback (the naive way) blocks the context once the socket buffers fill. */
    @Test
    void premiseTheNaiveWritesInsideTheCallbackBlockTheSessionOnAStalledTab(Browser tab) throws Exception {
        Board board = boards.newSessionBoard(tab);
        StalledSocket stalledTab = StalledSocket.sse(port, "/naive-events", tab.cookie("JSESSIONID"));
        try {
            await().atMost(GENEROUS).until(() -> board.naiveSubscribers() == 1);
            assertThatThrownBy(() -> tab.httpClient().send(tab.request("/naive-change?times=10000")
                    .POST(HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString()))
                    .as("the changes never finish: the callback is stuck in the stalled tab's write")
                    .isInstanceOf(HttpTimeoutException.class);
            assertThatThrownBy(() -> tab.httpClient().send(tab.request("/touch").timeout(Duration.ofSeconds(2)).build(),
                    HttpResponse.BodyHandlers.ofString()))
                    .as("and every other request of the session waits behind it")
                    .isInstanceOf(HttpTimeoutException.class);
            assertThat(RendererSyncContext.blockedCallbacks()).as("the watchdog reports the blocked callback")
                    .anyMatch(blocked -> blocked.contextName().equals(board.context.name()));
        } finally {
            stalledTab.close(); // the write fails, the callback ends
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> RendererSyncContext.blockedCallbacks().isEmpty());
    }
}
