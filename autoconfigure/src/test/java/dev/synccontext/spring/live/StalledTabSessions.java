package dev.synccontext.spring.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.live.LiveSubscriber;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.SseClient;
import dev.synccontext.testing.StalledSocket;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The sessions of a stalled-tab test: per session a browser, its board and its healthy SSE tab (named
 * {@code healthy}), and the stalled raw sockets the test opens beside them. Closing it closes every tab.
 */
final class StalledTabSessions<B extends CountingBoard> implements AutoCloseable {

    final List<Browser> browsers = new ArrayList<>();
    final List<B> boards = new ArrayList<>();
    final List<SseClient> healthy = new ArrayList<>();
    final List<StalledSocket> stalled = new ArrayList<>();

    /** Opens a session: a new browser on {@code port}, its board (made by {@code newBoard}), and its healthy tab. */
    Browser open(int port, Function<Browser, B> newBoard) throws IOException, InterruptedException {
        Browser tab = new Browser(port);
        browsers.add(tab);
        boards.add(newBoard.apply(tab));
        healthy.add(new SseClient(tab.httpClient(), tab.uri("/events?tab=healthy"), null, null));
        return tab;
    }

    /**
     * Session {@code session}'s healthy tab saw strictly increasing sequences, each one it missed of the
     * {@code last + 1} published a drop its subscriber {@code fine} counted.
     */
    void assertHealthyTabGapsAreCountedDrops(int session, long last, LiveSubscriber fine) {
        List<Long> seen = healthy.get(session).sequences();
        assertThat(seen).as("session %d's healthy tab: strictly increasing", session).isSorted().doesNotHaveDuplicates();
        assertThat(last + 1 - seen.size()).as("session %d: the healthy tab's gaps are its counted drops", session)
                .isEqualTo(fine.dropped());
    }

    /** The subscriber stayed within its buffer's bound, and each of the {@code published} reached it or was counted. */
    static void assertAccounted(int session, LiveSubscriber subscriber, long published) {
        assertThat(subscriber.highWater()).isLessThanOrEqualTo(subscriber.capacity());
        assertThat(subscriber.written() + subscriber.buffered() + subscriber.dropped())
                .as("session %d: everything published reached the transport, waits, or was counted dropped", session)
                .isEqualTo(published);
    }

    @Override
    public void close() throws IOException {
        for (SseClient client : healthy) {
            client.close();
        }
        for (StalledSocket socket : stalled) {
            socket.close();
        }
    }
}
