package dev.synccontext.test;

import dev.synccontext.live.CloseReason;
import dev.synccontext.live.LiveMessage;
import dev.synccontext.live.LiveTransport;

/**
 * A live transport for tests about when and why a subscriber's transport is closed: always ready, it takes
 * every message and drops it; a subclass says what a close does.
 */
public abstract class ReadyTransport implements LiveTransport {

    @Override
    public final boolean ready() {
        return true;
    }

    @Override
    public final boolean write(LiveMessage message) {
        return true;
    }

    @Override
    public abstract void close(CloseReason reason);
}
