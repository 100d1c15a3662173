package dev.synccontext.bench.capacity;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.stereotype.Component;

/** The pads of the sessions alive right now, so the ticker can reach them. Pads add and remove themselves. */
@Component
final class LivePads {

    private final Set<Pad> pads = ConcurrentHashMap.newKeySet();

    void add(Pad pad) {
        pads.add(pad);
    }

    void remove(Pad pad) {
        pads.remove(pad);
    }

    List<Pad> all() {
        return List.copyOf(pads);
    }

    int size() {
        return pads.size();
    }
}
