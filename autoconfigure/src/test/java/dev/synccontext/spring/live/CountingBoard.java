package dev.synccontext.spring.live;

import dev.synccontext.live.LiveSubscriber;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The board of {@link LiveBoardApp} and {@link LiveFluxBoardApp}: a counter and a pad, each change published to
 * every tab. Called through the context-scoped proxy, on the session's context.
 */
abstract class CountingBoard extends ScopedBoard {

    /** Each subscriber by the {@code tab} name its request gave, so that a test tells its tabs apart. */
    final Map<String, LiveSubscriber> tabs = new ConcurrentHashMap<>();
    protected long counter;
    protected String pad;

    CountingBoard(LiveChannels channels, String pad) {
        super(channels, "board");
        this.pad = pad;
    }

    void tab(String name, LiveSubscriber subscriber) {
        if (!name.isEmpty()) {
            tabs.put(name, subscriber);
        }
    }

    /** Publishes {@code times} changes of a pad of {@code size} characters; answers the counter. */
    long change(int times, int size) {
        if (pad.length() != size) {
            pad = "x".repeat(size);
        }
        for (int i = 0; i < times; i++) {
            counter++;
            live.publish("board", "board", state());
        }
        return counter;
    }
}
