package dev.synccontext.spring.shutdown;

import dev.synccontext.ContextShuttingDownException;
import dev.synccontext.registry.ShuttingDownException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Tells a refusal because the application is shutting down from any other failure, for the web stacks'
 * error answers: the registry's {@link ShuttingDownException} (no new context) and a drained context's
 * {@link ContextShuttingDownException} (no new callback), wherever they sit in a failure's cause chain
 * (Spring wraps the first in a {@code ScopeNotActiveException} when a session-scoped proxy asked for the
 * context). Both mean the same to a client: this node is going away and another one can answer, which is
 * a {@code 503 Service Unavailable} (a balancer may pass the request on), not a {@code 500}.
 */
public final class ShuttingDownRefusals {

    private ShuttingDownRefusals() {
    }

    /** The shutting-down refusal in {@code failure}'s cause chain (itself included), or null if none is. */
    public static @Nullable RuntimeException find(Throwable failure) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = failure; t != null && seen.add(t); t = t.getCause()) {
            if (t instanceof ShuttingDownException || t instanceof ContextShuttingDownException) {
                return (RuntimeException) t;
            }
        }
        return null;
    }
}
