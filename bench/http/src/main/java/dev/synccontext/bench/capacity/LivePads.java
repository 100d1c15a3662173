package dev.synccontext.bench.capacity;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import dev.synccontext.RendererSyncContext;
import org.springframework.stereotype.Component;

/**
 * The pads of the sessions alive right now, by their context, so the ticker can reach them. Pads add and remove
 * themselves.
 */
@Component
final class LivePads {

    private final Map<RendererSyncContext, Pad> pads = new ConcurrentHashMap<>();

    void add(Pad pad) {
        pads.put(pad.context(), pad);
    }

    void remove(Pad pad) {
        pads.remove(pad.context(), pad);
    }

    /** Whether {@code context} has a live pad. */
    boolean has(RendererSyncContext context) {
        return pads.containsKey(context);
    }

    /** The pad of the context whose callback is running, if it has one (inside a broadcast's callback). */
    Optional<Pad> current() {
        return RendererSyncContext.current().map(pads::get);
    }

    List<Pad> all() {
        return List.copyOf(pads.values());
    }

    int size() {
        return pads.size();
    }
}
