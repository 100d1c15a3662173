package dev.synccontext.autoconfigure.health;

import dev.synccontext.spring.durable.StateStore;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Whether the durable state store answers: one read of a handle no session has ({@link #PROBE_HANDLE}), which
 * changes nothing in the store. Up when it answers (found or not), down with the exception when it throws.
 */
final class StateStoreHealthIndicator implements HealthIndicator {

    /** Read by the probe; a valid handle that no session id takes (they are random and have no colons). */
    static final String PROBE_HANDLE = "synccontext:health-probe";

    private final StateStore store;

    StateStoreHealthIndicator(StateStore store) {
        this.store = store;
    }

    @Override
    public Health health() {
        String name = store.getClass().getSimpleName();
        try {
            store.read(PROBE_HANDLE);
            return Health.up().withDetail("store", name).build();
        } catch (RuntimeException unreachable) {
            return Health.down(unreachable).withDetail("store", name).build();
        }
    }
}
