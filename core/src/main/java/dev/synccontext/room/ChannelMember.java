package dev.synccontext.room;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.live.LiveChannel;
import java.util.function.Function;

/**
 * A member reached through a live channel (its session's private channel, so a tab needs one connection for its
 * own events and its rooms'): each event is published to the channel from the room's context, which never blocks
 * on the network. The channel numbers it in its own sequence, so resume and snapshots work as for the session's
 * own messages.
 */
final class ChannelMember<E> extends Member<E> {

    private final LiveChannel channel;
    private final String eventName;
    private final Function<? super E, ?> data;

    ChannelMember(Room<?, E> room, RendererSyncContext owner, LiveChannel channel, String eventName,
            Function<? super E, ?> data) {
        super(room, owner);
        this.channel = channel;
        this.eventName = eventName;
        this.data = data;
    }

    @Override
    boolean deliver(E event) {
        Object payload = data.apply(event);
        try {
            channel.publish(eventName, room.delivery() == Delivery.CONVERGING ? channelKey(event) : null, payload);
            return true;
        } catch (IllegalStateException closed) { // the channel went away with its context
            room.refusedByChannel(channel, closed);
            return false;
        }
    }

    /** The room's key, or {@code roomKey:eventKey} when the room coalesces by key. */
    private String channelKey(E event) {
        Object key = room.coalesceKey(event);
        return key == null ? room.key() : room.key() + ":" + key;
    }
}
