package dev.synccontext.spring.observation;

import dev.synccontext.CallbackOutcome;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * What a queued callback's observation knows: its context's name and scope, how long it waited in the
 * queue, and (once it ran) how it ended. Made on the thread that runs the callback, just before it runs.
 */
public final class QueuedCallbackContext extends Observation.Context {

    private final String contextName;
    private final @Nullable String scope;
    private final long queueWaitNanos;
    private @Nullable CallbackOutcome outcome;

    public QueuedCallbackContext(String contextName, @Nullable String scope, long queueWaitNanos) {
        this.contextName = contextName;
        this.scope = scope;
        this.queueWaitNanos = queueWaitNanos;
    }

    /** The name of the context the callback ran on. */
    public String getContextName() {
        return contextName;
    }

    /** The context's scope, or null when it was built without one. */
    public @Nullable String getScope() {
        return scope;
    }

    /** Nanoseconds between the callback being queued and starting to run. */
    public long getQueueWaitNanos() {
        return queueWaitNanos;
    }

    /** How the run ended; null while it runs. */
    public @Nullable CallbackOutcome getOutcome() {
        return outcome;
    }

    void setOutcome(CallbackOutcome outcome) {
        this.outcome = outcome;
    }
}
