package dev.synccontext.room;

import dev.synccontext.RendererSyncContext;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A member of a room: where its events go ({@link ContextMember}, {@link ChannelMember}) and whether it still
 * belongs. The room delivers from its own context, one event at a time, so {@link #deliver} is never called
 * concurrently for one member.
 */
abstract sealed class Member<E> implements Membership permits ContextMember, ChannelMember {

    final Room<?, E> room;
    /** The context whose release ends this membership. */
    final RendererSyncContext owner;
    private final AtomicBoolean active = new AtomicBoolean(true);

    Member(Room<?, E> room, RendererSyncContext owner) {
        this.room = room;
        this.owner = owner;
    }

    /**
     * Hands {@code event} to the member, on the room's context.
     *
     * @return false if the member refused it (closed meanwhile, full): it has then been counted and logged, and
     *     the room removes the member
     */
    abstract boolean deliver(E event);

    @Override
    public String roomKey() {
        return room.key();
    }

    @Override
    public boolean isActive() {
        return active.get();
    }

    @Override
    public void leave() {
        if (active.compareAndSet(true, false)) {
            room.forget(this);
        }
    }
}
