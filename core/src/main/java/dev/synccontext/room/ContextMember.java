package dev.synccontext.room;

import dev.synccontext.RendererSyncContext;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A member reached through its context: each event runs {@code receiver} as a callback posted to it. Posts from
 * the room's context are FIFO, so the member sees the events in publication order, and after any answer of an
 * {@link RendererSyncContext#ask ask} the room gave it before.
 */
final class ContextMember<E> extends Member<E> {

    private final Consumer<? super E> receiver;
    /** {@link Delivery#CONVERGING} only: the latest event not yet handed over; non-null while a callback is queued. */
    private final AtomicReference<@Nullable E> latest = new AtomicReference<>();

    ContextMember(Room<?, E> room, RendererSyncContext context, Consumer<? super E> receiver) {
        super(room, context);
        this.receiver = receiver;
    }

    @Override
    boolean deliver(E event) {
        if (room.delivery() == Delivery.LOG) {
            return room.offer(owner, () -> receive(event));
        }
        // Only the event that finds the slot empty queues a callback; later ones replace it until that runs.
        if (latest.getAndSet(event) != null) {
            return true;
        }
        return room.offer(owner, () -> {
            E newest = latest.getAndSet(null);
            if (newest != null) {
                receive(newest);
            }
        });
    }

    private void receive(E event) {
        if (isActive()) {
            receiver.accept(event);
        }
    }
}
