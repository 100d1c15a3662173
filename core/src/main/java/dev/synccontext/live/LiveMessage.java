package dev.synccontext.live;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One message of a channel as a transport writes it: {@code event} is its name (an SSE event name, a
 * {@code type} field), {@code data} the value the transport encodes (published values should be immutable:
 * they are encoded later, on the drain's thread), {@code key} what {@link OverflowPolicy#COALESCE_BY_KEY}
 * coalesces on.
 *
 * <p>{@link #id()} is what a client echoes to resume ({@code Last-Event-ID}): the channel's epoch (random
 * per channel instance, so an id from another node or an earlier channel never matches) and the sequence
 * number. A snapshot carries the sequence number of the last message published before it, so the messages
 * after it continue the sequence without a duplicate or a gap.
 */
public record LiveMessage(String epoch, long sequence, String event, @Nullable String key, Object data,
        boolean snapshot) {

    public LiveMessage {
        Objects.requireNonNull(epoch, "epoch");
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(data, "data");
    }

    /** {@code epoch-sequence}: the event id a client sends back to resume. */
    public String id() {
        return epoch + "-" + sequence;
    }
}
