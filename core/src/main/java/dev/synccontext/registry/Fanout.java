package dev.synccontext.registry;

import dev.synccontext.RendererSyncContext;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Posts from a thread of the registry's own (a broadcast, a room's fan-out, a timer on its clock), which
 * has no caller to throw to: a context's refusal (closed meanwhile, or full, or a decorator that threw) is
 * counted and logged by the {@link RefusalLog}, never thrown, and the other contexts still get the callback.
 * Visits the contexts it is given as they are, without copying them.
 */
final class Fanout {

    private final RefusalLog refusals;

    Fanout(RefusalLog refusals) {
        this.refusals = refusals;
    }

    /** Posts {@code callback} to each of {@code contexts} that {@code which} accepts. */
    Broadcast toEach(Iterator<RendererSyncContext> contexts, Predicate<? super RendererSyncContext> which,
            Runnable callback) {
        int delivered = 0;
        int refused = 0;
        while (contexts.hasNext()) { // weakly consistent: each one open throughout is seen once
            RendererSyncContext context = contexts.next();
            if (which.test(context)) {
                if (post(context, callback, "A broadcast callback")) {
                    delivered++;
                } else {
                    refused++;
                }
            }
        }
        return new Broadcast(delivered, refused);
    }

    /** Posts {@code callback} to each context of {@code keyed} whose key {@code keys} accepts. */
    Broadcast toKeys(Map<String, RendererSyncContext> keyed, Predicate<String> keys, Runnable callback) {
        int delivered = 0;
        int refused = 0;
        for (Map.Entry<String, RendererSyncContext> entry : keyed.entrySet()) {
            if (keys.test(entry.getKey())) {
                if (post(entry.getValue(), callback, "A broadcast callback")) {
                    delivered++;
                } else {
                    refused++;
                }
            }
        }
        return new Broadcast(delivered, refused);
    }

    /** Posts {@code callback}, {@code what} in the log if refused; whether the context queued it. */
    boolean post(RendererSyncContext context, Runnable callback, String what) {
        try {
            context.post(callback);
            return true;
        } catch (RuntimeException refused) { // closed or full; or a decorator that threw: either way, not queued
            refusals.refused(context, what, refused);
            return false;
        }
    }

    /** The refusals counted so far. */
    long refused() {
        return refusals.count();
    }
}
