package dev.synccontext.autoconfigure.durable;

import dev.synccontext.spring.durable.StateStore;
import dev.synccontext.spring.durable.session.DurableContexts;
import java.util.List;

/**
 * What {@code /actuator/synccontext} shows of durable state: a bean only when the application has durable beans,
 * so the endpoint shows {@code "durable": null} otherwise. A separate class so the endpoint refers to no type of
 * the durable layer.
 */
public final class DurableSection {

    private final DurableContexts durable;
    private final String storeType;

    DurableSection(DurableContexts durable, StateStore store) {
        this.durable = durable;
        this.storeType = store.getClass().getSimpleName();
    }

    /** The section as of now. */
    public DurableOverview overview() {
        return DurableOverview.of(durable, storeType);
    }

    /** The {@code top} sessions of this node by the size of their last snapshot, largest first. */
    public List<LargestSnapshot> largestSnapshots(int top) {
        return durable.largestSnapshots(top).stream().map(LargestSnapshot::of).toList();
    }
}
