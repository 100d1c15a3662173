package dev.synccontext.spring.live;

import dev.synccontext.live.LiveChannel;
import jakarta.annotation.PreDestroy;

/**
 * A {@code @ContextScoped} board of the live-channel test applications: its channel, opened with the board's state
 * as the snapshot, is closed when the board's context ends. The methods a test calls through the context-scoped
 * proxy are public, so that the proxy of a subclass in any package passes them to the board.
 */
public abstract class ScopedBoard {

    protected final LiveChannel live;

    protected ScopedBoard(LiveChannels channels, String name) {
        this.live = channels.open(name, this::state);
    }

    /** What a new subscriber gets first; called on the board's context. */
    protected abstract Object state();

    public LiveChannel live() {
        return live;
    }

    @PreDestroy
    public void ended() {
        live.close();
    }
}
