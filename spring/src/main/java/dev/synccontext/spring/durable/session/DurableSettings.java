package dev.synccontext.spring.durable.session;

import java.time.Duration;
import java.util.Objects;

/**
 * How this node keeps its sessions' durable state.
 *
 * @param nodeLeaseTtl   how long the node's lease in the store lives without a renewal (renewed every third of it)
 * @param handOffTimeout how long a request waits for another node to hand a session over before it is answered
 *                       503 with {@code Retry-After}
 * @param debounce       how long after a change the snapshot is taken and written, so that a burst costs one write
 * @param idleTimeout    how long the store keeps a session's record after its last acquire or write
 * @param writeThrough   whether an {@code @OnContext} answer waits until the snapshot of its changes is accepted
 *                       ({@link WriteThrough})
 */
public record DurableSettings(Duration nodeLeaseTtl, Duration handOffTimeout, Duration debounce, Duration idleTimeout,
        boolean writeThrough) {

    /** Without write-through: snapshots are written after the debounce, off the request path. */
    public DurableSettings(Duration nodeLeaseTtl, Duration handOffTimeout, Duration debounce, Duration idleTimeout) {
        this(nodeLeaseTtl, handOffTimeout, debounce, idleTimeout, false);
    }

    public DurableSettings {
        Objects.requireNonNull(nodeLeaseTtl, "nodeLeaseTtl");
        Objects.requireNonNull(handOffTimeout, "handOffTimeout");
        Objects.requireNonNull(debounce, "debounce");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        if (debounce.isNegative()) {
            throw new IllegalArgumentException("synccontext.durable.debounce must not be negative, was " + debounce);
        }
    }
}
