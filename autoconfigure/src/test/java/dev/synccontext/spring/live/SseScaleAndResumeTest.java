package dev.synccontext.spring.live;



import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.live.LiveBoardApp.Board;
import dev.synccontext.spring.live.LiveBoardApp.Boards;
import dev.synccontext.live.LiveSubscriber;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.SseClient;
import dev.synccontext.testing.StalledSocket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Many sessions with stalled and healthy SSE tabs, and resume after a dropped connection ({@link SseResumeContract}),
 * over real Tomcat.
 * Same application as {@link SseHeadOfLineTest} ({@link OnStalledTabBoard}).
 */
@OnStalledTabBoard
@Tag("scale")
class SseScaleAndResumeTest extends SseResumeContract {

    private static final Duration GENEROUS = Duration.ofSeconds(10);

    @LocalServerPort
    int port;

    @Autowired
    Boards boards;

    /**
     * 25 sessions, each with one healthy tab and two stalled ones (50 stalled subscribers); 300 changes of 8 KB
     * per session, enough to fill every stalled tab's socket buffers. No thread waits for a stalled tab.
     */
    @Test
    void fiftyStalledSubscribersHoldNoThreadAndEveryGapIsACountedDrop() throws Exception {
        int sessions = 25;
        try (StalledTabSessions<Board> tabs = new StalledTabSessions<>()) {
            for (int i = 0; i < sessions; i++) {
                tabs.open(port, boards::newSessionBoard);
            }
            changeEach(tabs.browsers, 10);
            int threadsBefore = serverThreads();
            for (Browser tab : tabs.browsers) {
                tabs.stalled.add(StalledSocket.sse(port, "/events?tab=stalled-a", tab.cookie("JSESSIONID")));
                tabs.stalled.add(StalledSocket.sse(port, "/events?tab=stalled-b", tab.cookie("JSESSIONID")));
            }
            for (Board board : tabs.boards) {
                await().atMost(GENEROUS).until(() -> board.tabs.size() == 3);
            }
            for (int round = 0; round < 3; round++) {
                changeEach(tabs.browsers, 100);
                assertThat(RendererSyncContext.blockedCallbacks()).as("no callback blocked").isEmpty();
            }
            int threadsAfter = serverThreads();
            for (int i = 0; i < sessions; i++) {
                long last = tabs.boards.get(i).live.lastSequence();
                SseClient client = tabs.healthy.get(i);
                Board board = tabs.boards.get(i);
                await().atMost(Duration.ofSeconds(30)).failFast(() -> false).conditionEvaluationListener(condition -> {
                    if (condition.getRemainingTimeInMS() < 1000) {
                        board.live.subscribers().forEach(sub -> System.out.printf("late: client %s, server written %d"
                                + " last %d buffered %d dropped %d%n", client.last().id(), sub.written(), sub.lastWritten(),
                                sub.buffered(), sub.dropped()));
                    }
                }).until(() -> client.last() != null && client.last().sequence() == last);
            }
            // Quiet now: 50 stalled subscribers are open with their socket buffers full, and no thread is theirs.
            assertThat(threadsInWrites()).as("no thread is inside a live drain or a write once the healthy tabs"
                    + " caught up").isEmpty();
            long stalledBuffered = 0;
            long stalledDropped = 0;
            for (int i = 0; i < sessions; i++) {
                Board board = tabs.boards.get(i);
                long last = board.live.lastSequence();
                // Told apart by the tab name their requests gave, not by how much each took (drop-oldest drops
                // from the healthy tab too, and a stalled one takes as much until its socket buffers fill).
                LiveSubscriber fine = board.tabs.get("healthy");
                List<LiveSubscriber> subscribers = List.of(board.tabs.get("stalled-a"), board.tabs.get("stalled-b"), fine);
                assertThat(board.live.subscribers()).as("session %d: every tab still subscribed (%s)", i,
                        describe(board)).containsExactlyInAnyOrderElementsOf(subscribers);
                tabs.assertHealthyTabGapsAreCountedDrops(i, last, fine);
                for (LiveSubscriber subscriber : subscribers) {
                    // the healthy tab's snapshot was at 0, the stalled tabs' (subscribed after 10 changes) at 10
                    long snapshotAt = subscriber == fine ? 0 : 10;
                    StalledTabSessions.assertAccounted(i, subscriber, last - snapshotAt + 1);
                }
                for (LiveSubscriber subscriber : subscribers.subList(0, 2)) {
                    assertThat(subscriber.dropped()).as("session %d: a stalled tab's buffer filled up (drop-oldest dropped)", i)
                            .isPositive();
                    stalledBuffered += subscriber.buffered();
                    stalledDropped += subscriber.dropped();
                }
            }
            System.out.printf("scale: %d sessions, %d healthy and %d stalled tabs; server threads (Tomcat's and the"
                    + " executor's) %d before the stalled tabs, %d after; stalled tabs hold %d buffered messages (bound %d), dropped %d%n", sessions,
                    tabs.healthy.size(), tabs.stalled.size(), threadsBefore, threadsAfter, stalledBuffered,
                    tabs.stalled.size() * 32,
                    stalledDropped);
            // The pools may have grown meanwhile (Tomcat's for 50 handshakes, the elastic executor under a busy
            // CPU), but idle: what a stalled subscriber could hold is a thread inside its drain, asserted empty above.
            assertThat(stalledDropped).isPositive();
        }
    }

    /** Each tab's name, why it ended (null: it is open) and its counts, for a failure's message. */
    private static String describe(Board board) {
        StringBuilder out = new StringBuilder();
        board.tabs.forEach((name, sub) -> out.append(String.format("%s: closed %s, written %d, buffered %d, dropped %d; ",
                name, sub.closeReason(), sub.written(), sub.buffered(), sub.dropped())));
        return out.toString();
    }

    /** The threads that could be held by a subscriber: Tomcat's request threads and the contexts' executor. */
    private static int serverThreads() {
        return (int) Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith("http-nio") || thread.getName().startsWith("synccontext"))
                .count();
    }

    /** Threads inside a socket write or a live drain right now (a stalled client would hold them there). */
    private static List<String> threadsInWrites() {
        List<String> held = new ArrayList<>();
        Thread.getAllStackTraces().forEach((thread, stack) -> {
            boolean inWrite = java.util.Arrays.stream(stack).anyMatch(frame -> frame.getMethodName().contains("writeBlocking")
                    || frame.getMethodName().equals("doWrite")
                    || frame.getClassName().endsWith("LiveSubscriber") || frame.getClassName().endsWith("SseTransport"));
            if (inWrite) {
                held.add(thread.getName() + " " + java.util.Arrays.stream(stack).limit(12).map(Object::toString).toList());
            }
        });
        return held;
    }

    @Override
    CountingBoard newSessionBoard(Browser tab) {
        return boards.newSessionBoard(tab);
    }

    /** Changes until the server has seen the tab go: it learns that a connection is gone when a write fails. */
    @Override
    void awaitTabGone(Browser tab, CountingBoard board) {
        await().atMost(GENEROUS).until(() -> {
            change(tab, 1);
            return board.live.subscribers().isEmpty();
        });
    }

    @Override
    void change(Browser tab, int times) {
        HttpResponse<String> answer = tab.send(tab.request("/change?times=" + times)
                .POST(HttpRequest.BodyPublishers.noBody()).timeout(GENEROUS));
        assertThat(answer.statusCode()).isEqualTo(200);
    }

    private static void changeEach(List<Browser> tabs, int times) {
        for (Browser tab : tabs) {
            HttpResponse<String> answer = tab.send(tab.request("/change?size=8000&times=" + times)
                    .POST(HttpRequest.BodyPublishers.noBody()).timeout(GENEROUS));
            assertThat(answer.statusCode()).isEqualTo(200);
        }
    }
}
