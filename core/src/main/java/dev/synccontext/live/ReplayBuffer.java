package dev.synccontext.live;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The last {@code capacity} messages a channel published, for reconnects that resume. Guarded by its
 * channel's lock.
 */
final class ReplayBuffer {

    private final int capacity;
    private final ArrayDeque<LiveMessage> messages;

    ReplayBuffer(int capacity) {
        this.capacity = capacity;
        this.messages = new ArrayDeque<>(Math.min(capacity, 64));
    }

    void add(LiveMessage message) {
        if (capacity == 0) {
            return;
        }
        if (messages.size() == capacity) {
            messages.pollFirst();
        }
        messages.addLast(message);
    }

    /**
     * The messages after {@code sequence}, in order, when the buffer still holds all of them (an empty list
     * when nothing was missed); {@code null} when some are gone.
     *
     * @param last the sequence number of the channel's last published message
     */
    @Nullable List<LiveMessage> after(long sequence, long last) {
        if (sequence == last) {
            return List.of();
        }
        if (sequence > last || messages.isEmpty() || messages.peekFirst().sequence() > sequence + 1) {
            return null;
        }
        List<LiveMessage> missed = new ArrayList<>((int) (last - sequence));
        for (LiveMessage message : messages) {
            if (message.sequence() > sequence) {
                missed.add(message);
            }
        }
        return missed;
    }
}
