package dev.synccontext.room;

import dev.synccontext.RendererSyncContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A member reached through its context: each event runs {@code receiver} as a callback posted to it. Posts from
 * the room's context are FIFO, so the member sees the events in publication order, and after any answer of an
 * {@link RendererSyncContext#ask ask} the room gave it before.
 */
final class ContextMember<E> extends Member<E> {

    /** A key for every event of a room that does not coalesce by key: they all replace each other. */
    private static final Object THE_ROOM = new Object();

    private final Consumer<? super E> receiver;
    /**
     * {@link Delivery#CONVERGING} only: the latest event of each key not yet handed over, in the order those were
     * published; non-empty while a callback is queued. Guarded by itself.
     */
    private final Map<Object, E> latest = new LinkedHashMap<>();

    ContextMember(Room<?, E> room, RendererSyncContext context, Consumer<? super E> receiver) {
        super(room, context);
        this.receiver = receiver;
    }

    @Override
    boolean deliver(E event) {
        if (room.delivery() == Delivery.LOG) {
            return room.offer(owner, () -> receive(event));
        }
        Object key = Objects.requireNonNullElse(room.coalesceKey(event), THE_ROOM);
        synchronized (latest) {
            boolean queued = !latest.isEmpty();
            latest.remove(key); // re-inserted last: the handed-over events keep the order of publication
            latest.put(key, event);
            if (queued) {
                return true; // only the event that finds nothing pending queues a callback; it hands this over too
            }
        }
        return room.offer(owner, this::receiveLatest);
    }

    private void receiveLatest() {
        List<E> newest;
        synchronized (latest) {
            newest = new ArrayList<>(latest.values());
            latest.clear();
        }
        newest.forEach(this::receive);
    }

    private void receive(E event) {
        if (isActive()) {
            receiver.accept(event);
        }
    }
}
