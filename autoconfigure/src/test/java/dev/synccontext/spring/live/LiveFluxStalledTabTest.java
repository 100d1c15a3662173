package dev.synccontext.spring.live;

import static dev.synccontext.spring.live.LiveFluxTest.GENEROUS;
import static dev.synccontext.spring.live.LiveFluxTest.change;
import static dev.synccontext.spring.live.LiveFluxTest.newBoard;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.live.LiveSubscriber;
import dev.synccontext.spring.live.LiveFluxBoardApp.Board;
import dev.synccontext.spring.live.LiveFluxBoardApp.Boards;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import dev.synccontext.testing.SseClient;
import dev.synccontext.testing.StalledSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A stalled tab on WebFlux (a raw socket with a 2 KB receive buffer that sends its request and never reads) does
 * not hold its session or any other tab: its session's changes are answered, every healthy tab (its session's and
 * other sessions') gets everything, each gap a counted drop; the stalled subscriber's buffer stays within its
 * bound and overflows under its policy (a transport that wrote past the response's demand would have drained it
 * into the server's queues instead: nothing dropped, memory unbounded), and no thread waits for it.
 */
@OnRandomPort(classes = LiveFluxBoardApp.class,
        properties = {"spring.main.web-application-type=reactive", "synccontext.live.policy=drop-oldest",
                "synccontext.live.buffer-capacity=32", "synccontext.live.replay-capacity=100",
                "server.shutdown=immediate"})
@Tag("scale") // 32 MB through the healthy tabs: a minute on the shared 2-core machine
class LiveFluxStalledTabTest {

    /**
     * Changes per session, of {@link #SIZE} characters: 16 MB, and well over the messages a stalled connection can
     * hold. The kernel holds bytes (Linux grows a send buffer up to {@code tcp_wmem}'s maximum, often 4 MB: 260 of
     * these); the server's operators hold a number of messages, whatever their size (their prefetch: about 150 on
     * Reactor Netty on a quiet machine; under load all of 300 messages of 64 KB once went in). At a load of 28 on
     * the 2-core machine, the stalled tab took 272 of the 1,000.
     */
    private static final int CHANGES = 1_000;
    private static final int SIZE = 16_000;

    @LocalServerPort
    int port;

    @Autowired
    Boards boards;

    @Test
    void aStalledTabHoldsNeitherItsSessionNorOtherTabsNorAThread() throws Exception {
        int sessions = 2;
        try (StalledTabSessions<Board> tabs = new StalledTabSessions<>()) {
            for (int i = 0; i < sessions; i++) {
                Browser tab = tabs.open(port, browser -> newBoard(browser, boards));
                Board board = tabs.boards.get(i);
                tabs.stalled.add(new StalledSocket(port, "GET /events?tab=stalled HTTP/1.1\r\nHost: localhost:" + port
                        + "\r\nAccept: text/event-stream\r\nCookie: SESSION=" + tab.cookie("SESSION") + "\r\n\r\n"));
                await().atMost(GENEROUS).until(() -> board.tabs.size() == 2);
            }
            for (int done = 0; done < CHANGES; done += 20) {
                for (Browser tab : tabs.browsers) {
                    change(tab, 20, SIZE); // answered: the stalled tab holds nothing of its session's context
                }
            }
            for (int i = 0; i < sessions; i++) {
                long last = tabs.boards.get(i).live.lastSequence();
                SseClient client = tabs.healthy.get(i);
                await().atMost(Duration.ofSeconds(60)).until(() -> client.last() != null && client.last().sequence() == last);
            }
            assertThat(threadsInWrites()).as("no thread is inside a live drain or the transport once the healthy tabs"
                    + " caught up").isEmpty();
            for (int i = 0; i < sessions; i++) {
                Board board = tabs.boards.get(i);
                long last = board.live.lastSequence();
                LiveSubscriber fine = board.tabs.get("healthy");
                LiveSubscriber stuck = board.tabs.get("stalled");
                assertThat(board.live.subscribers()).as("session %d: both tabs still subscribed", i)
                        .containsExactlyInAnyOrder(fine, stuck);
                tabs.assertHealthyTabGapsAreCountedDrops(i, last, fine);
                for (LiveSubscriber subscriber : List.of(fine, stuck)) {
                    StalledTabSessions.assertAccounted(i, subscriber, last + 1);
                }
                assertThat(stuck.lastWritten()).as("session %d: the stalled tab's transport stopped taking messages", i)
                        .isLessThan(last);
                assertThat(stuck.buffered()).as("session %d: the stalled tab's drain parked with its buffer full (a"
                        + " transport that ignored the response's demand would have taken them all)", i)
                        .isEqualTo(stuck.capacity());
                assertThat(stuck.isOpen()).isTrue();
                System.out.printf("flux stalled tab, session %d: %d published; healthy written %d dropped %d; stalled"
                        + " written %d (%.1f MB: the server's queues and the kernel's buffers) buffered %d dropped %d%n", i,
                        last, fine.written(), fine.dropped(), stuck.written(), stuck.written() * (SIZE + 40) / 1e6,
                        stuck.buffered(), stuck.dropped());
            }
        }
    }

    /** Threads inside a live drain or the transport right now (a stalled client would hold them there). */
    private static List<String> threadsInWrites() {
        List<String> held = new ArrayList<>();
        Thread.getAllStackTraces().forEach((thread, stack) -> {
            boolean inWrite = Arrays.stream(stack).anyMatch(frame -> frame.getClassName().endsWith("LiveSubscriber")
                    || frame.getClassName().endsWith("FluxTransport"));
            if (inWrite) {
                held.add(thread.getName() + " " + Arrays.stream(stack).limit(12).map(Object::toString).toList());
            }
        });
        return held;
    }
}
