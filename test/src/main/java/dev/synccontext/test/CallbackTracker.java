package dev.synccontext.test;

import dev.synccontext.CallbackDecorator;
import dev.synccontext.RendererSyncContext;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;

/**
 * The kit's decorator and unhandled-exception handler: remembers where each queued callback was
 * submitted until it runs, and every failure that reached a context's unhandled-exception handler (or a
 * virtual timer) until the test takes it. Thread-safe.
 */
final class CallbackTracker implements CallbackDecorator, BiConsumer<RendererSyncContext, Throwable> {

    /** Queued callbacks not yet run (or aborted), in submission order. */
    private final Map<Object, SubmitSite> queued = new LinkedHashMap<>(); // keys compare by identity
    /** A queued callback's failure, on its way from the callback to the handler. */
    private final Map<Throwable, SubmitSite> inFlight = new IdentityHashMap<>();
    private final List<Failure> unobserved = new ArrayList<>();

    /** A failure nobody observed: where it happened, what it was, and where its callback came from. */
    record Failure(String where, Throwable failure, SubmitSite site) {
    }

    @Override
    public Runnable decorate(Runnable callback) {
        SubmitSite site = SubmitSite.here();
        Runnable[] self = new Runnable[1];
        Runnable tracked = () -> {
            forget(self[0]);
            try {
                callback.run();
            } catch (Throwable failure) {
                noteInFlight(failure, site);
                throw failure;
            }
        };
        self[0] = tracked;
        remember(tracked, site);
        return tracked;
    }

    @Override
    public <T> Callable<T> decorate(Callable<T> callback) {
        SubmitSite site = SubmitSite.here();
        Object key = new Object();
        remember(key, site);
        // A callable's failure goes into the future its caller holds: observed by whoever holds it.
        return () -> {
            forget(key);
            return callback.call();
        };
    }

    @Override
    public void accept(RendererSyncContext context, Throwable failure) {
        SubmitSite site;
        synchronized (this) {
            site = inFlight.remove(failure);
        }
        failed("a callback of context '" + context.name() + "'", failure, site != null ? site : SubmitSite.here());
    }

    synchronized void failed(String where, Throwable failure, SubmitSite site) {
        unobserved.add(new Failure(where, failure, site));
    }

    /** The unobserved failures so far, which are observed from now on. */
    synchronized List<Throwable> takeFailures() {
        List<Throwable> taken = unobserved.stream().map(Failure::failure).toList();
        unobserved.clear();
        return taken;
    }

    synchronized List<Failure> unobserved() {
        return List.copyOf(unobserved);
    }

    /** Where each queued callback that has not run was submitted, oldest first. */
    synchronized List<SubmitSite> queuedSites() {
        return List.copyOf(queued.values());
    }

    private synchronized void remember(Object key, SubmitSite site) {
        queued.put(key, site);
    }

    private synchronized void forget(Object key) {
        queued.remove(key);
    }

    private synchronized void noteInFlight(Throwable failure, SubmitSite site) {
        inFlight.put(failure, site);
    }
}
