package dev.synccontext.room;

import dev.synccontext.live.CloseReason;
import dev.synccontext.live.LiveMessage;
import dev.synccontext.live.LiveTransport;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;

/** A live transport for tests: always ready, keeps what it is given (one tab's stream). */
final class ListTransport implements LiveTransport {

    final List<LiveMessage> written = new CopyOnWriteArrayList<>();
    volatile @Nullable CloseReason closed;

    @Override
    public boolean ready() {
        return true;
    }

    @Override
    public boolean write(LiveMessage message) {
        written.add(message);
        return true;
    }

    @Override
    public void close(CloseReason reason) {
        closed = reason;
    }

    @Override
    public @Nullable String lastEventId() {
        return null;
    }

    /** The data of the messages of {@code event}, in the order written. */
    List<Object> data(String event) {
        return written.stream().filter(m -> m.event().equals(event)).map(LiveMessage::data).toList();
    }
}
