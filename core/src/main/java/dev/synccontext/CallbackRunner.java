package dev.synccontext;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;

/**
 * Runs a context's callbacks once the context has decided who runs them, and tells the observer: the
 * callback frame around the call, the call itself, its outcome, the one-in-N timing sample, and the
 * report of a posted callback's failure. Nothing here touches the context's state word, its owner
 * token or its queue: {@link SyncContext} claims the context (or is already inside it) before it calls
 * here, and gives it back after.
 *
 * <p>The methods are static and take the context, so that a context stays one object and the idle
 * path one call deeper at most, which the JIT inlines. None of them throws for what the callback or
 * the observer threw.
 */
final class CallbackRunner {

    private static final System.Logger LOG = System.getLogger(RendererSyncContext.class.getName());

    private CallbackRunner() {
    }

    /**
     * Runs an {@code invokeAsync*} callback on the caller's thread, inside {@code ctx} (which the caller
     * owns, or is already inside: {@code path} says which), and returns the future the caller gets.
     */
    static <T> CompletableFuture<T> invoke(SyncContext ctx, Object callback, Invocation how, CallbackPath path) {
        CallbackFrame frame = CallbackFrame.get();
        SyncContext outer = frame.enter(ctx);
        try {
            return ctx.settings.observer == null ? how.call(callback)
                    : invokeObserved(ctx, callback, how, path, frame);
        } finally {
            frame.leave(outer);
        }
    }

    private static <T> CompletableFuture<T> invokeObserved(SyncContext ctx, Object callback, Invocation how,
            CallbackPath path, CallbackFrame frame) {
        if (!frame.sampleNext(ctx.settings.samplingMask)) {
            CompletableFuture<T> result = how.call(callback);
            observe(ctx, path, Invocation.outcome(result));
            return result;
        }
        long allocatedBefore = AllocationProbe.currentThreadAllocatedBytes();
        long start = System.nanoTime();
        CompletableFuture<T> result = how.call(callback);
        sampled(ctx, ctx.settings.observer, path, 0, System.nanoTime() - start, allocatedBefore);
        observe(ctx, path, Invocation.outcome(result));
        return result;
    }

    /** Runs a {@code send} callback on the caller's thread, inside {@code ctx}; returns its failure. */
    static @Nullable Throwable runOnCaller(SyncContext ctx, Runnable callback, CallbackPath path) {
        CallbackFrame frame = CallbackFrame.get();
        SyncContext outer = frame.enter(ctx);
        try {
            SyncContextObserver observer = ctx.settings.observer;
            if (observer == null) {
                try {
                    callback.run();
                    return null;
                } catch (Throwable failure) {
                    return failure;
                }
            }
            boolean sample = frame.sampleNext(ctx.settings.samplingMask);
            long allocatedBefore = sample ? AllocationProbe.currentThreadAllocatedBytes() : 0;
            long start = sample ? System.nanoTime() : 0;
            Throwable failure = null;
            try {
                callback.run();
            } catch (Throwable thrown) {
                failure = thrown;
            }
            if (sample) {
                sampled(ctx, observer, path, 0, System.nanoTime() - start, allocatedBefore);
            }
            observe(ctx, observer, path, failure == null ? CallbackOutcome.SUCCESS : Outcomes.of(failure));
            return failure;
        } finally {
            frame.leave(outer);
        }
    }

    /** Throws what {@link #runOnCaller} returned, if anything, as the sender's own failure. */
    static void rethrow(@Nullable Throwable failure) {
        if (failure == null) {
            return;
        }
        if (failure instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (failure instanceof Error error) {
            throw error;
        }
        throw new CompletionException(failure);
    }

    /**
     * Runs one queued callback for the drain, with the observer the drain read once: the context's
     * {@code settings} field shares a cache line with the state word and the tail for most places the
     * object can land at (depending on its address modulo 64), and a read of it per callback took that
     * line from a producer posting meanwhile, and the producer took it back with its next post.
     * Measured: {@code PostConcurrent} ran at ~51 ns per post in every fork where the object landed so
     * (5 of 8 alignments on Java 17, 7 of 8 on Java 25), ~29 ns in the others (bench/README.md, "The
     * settings read per callback").
     */
    static void runQueued(SyncContext ctx, Object item, CallbackFrame frame, @Nullable SyncContextObserver observer) {
        frame.seq++;
        if (!(item instanceof QueuedCallback<?> node)) {
            // A plain post: its slot held the runnable itself.
            CallbackOutcome outcome = runPost(ctx, (Runnable) item);
            if (observer != null) {
                observe(ctx, observer, CallbackPath.QUEUED, outcome);
            }
            return;
        }
        Object callback = node.take();
        if (observer == null) {
            node.runQueued(ctx, callback);
            return;
        }
        int sampledAt = node.sampledAt;
        if (sampledAt == 0) {
            observe(ctx, observer, CallbackPath.QUEUED, node.runQueued(ctx, callback));
            return;
        }
        long waitNanos = SampleTime.nanosSince(sampledAt);
        frame.noteQueueWait(waitNanos);
        long allocatedBefore = AllocationProbe.currentThreadAllocatedBytes();
        long start = System.nanoTime();
        CallbackOutcome outcome = node.runQueued(ctx, callback);
        long runNanos = System.nanoTime() - start;
        FlightEvents.queueWait(ctx, waitNanos, runNanos);
        sampled(ctx, observer, CallbackPath.QUEUED, waitNanos, runNanos, allocatedBefore);
        observe(ctx, observer, CallbackPath.QUEUED, outcome);
    }

    /** Runs a posted callback; its failure goes to the unhandled-exception report. */
    static CallbackOutcome runPost(SyncContext ctx, Runnable post) {
        try {
            post.run();
        } catch (Throwable failure) {
            reportUnhandled(ctx, failure);
            return Outcomes.of(failure);
        }
        return CallbackOutcome.SUCCESS;
    }

    /**
     * A claimed queue item that will never run: fails its future or waiting sender with {@code reason}.
     *
     * @return the posted runnable when it is a post, otherwise null
     */
    static @Nullable Runnable abortQueued(Object item, Throwable reason) {
        if (item instanceof QueuedCallback<?> node) {
            return node.abort(node.take(), reason);
        }
        return (Runnable) item;
    }

    /** Which path the observer hears of for a queue item. */
    static CallbackPath pathOf(Object item) {
        return item instanceof QueuedCallback<?> node ? node.path() : CallbackPath.QUEUED;
    }

    /**
     * Fails a queued callback that a refused drain claimed: its future or sender gets {@code rejection};
     * a post's goes to the unhandled-exception report; then the observer hears of it.
     */
    static void rejectQueued(SyncContext ctx, Object item, RejectedExecutionException rejection) {
        Runnable post = abortQueued(item, rejection);
        if (post != null) {
            reportUnhandled(ctx, rejection);
        }
        observe(ctx, pathOf(item), CallbackOutcome.REJECTED);
    }

    /** Chooses one queued node in {@code samplingMask + 1}, at random, to time from its queueing on. */
    static void markSample(SyncContext ctx, QueuedCallback<?> node) {
        int mask = ctx.settings.samplingMask;
        if (mask >= 0 && (ThreadLocalRandom.current().nextInt() & mask) == 0) {
            node.sampledAt = SampleTime.now();
        }
    }

    /**
     * What a post puts into its slot when an observer samples: the runnable itself, or, one time in
     * {@code samplingMask + 1}, a node that keeps the time it was queued.
     */
    static Object sampledPost(int samplingMask, Runnable post) {
        if ((ThreadLocalRandom.current().nextInt() & samplingMask) != 0) {
            return post;
        }
        QueuedPost node = new QueuedPost(post);
        node.sampledAt = SampleTime.now();
        return node;
    }

    static void observe(SyncContext ctx, CallbackPath path, CallbackOutcome outcome) {
        observe(ctx, ctx.settings.observer, path, outcome);
    }

    private static void observe(SyncContext ctx, @Nullable SyncContextObserver observer, CallbackPath path,
            CallbackOutcome outcome) {
        if (observer != null) {
            try {
                observer.callbackFinished(ctx, path, outcome);
            } catch (Throwable failure) {
                LOG.log(System.Logger.Level.ERROR, "SyncContextObserver.callbackFinished threw", failure);
            }
        }
    }

    private static void sampled(SyncContext ctx, @Nullable SyncContextObserver observer, CallbackPath path,
            long waitNanos, long runNanos, long allocatedBefore) {
        if (observer == null) {
            return; // only sampled when an observer is set; the check is for the type system
        }
        long allocated = allocatedBefore < 0 ? -1
                : AllocationProbe.currentThreadAllocatedBytes() - allocatedBefore;
        try {
            observer.callbackSampled(ctx, path, waitNanos, runNanos, allocated);
        } catch (Throwable failure) {
            LOG.log(System.Logger.Level.ERROR, "SyncContextObserver.callbackSampled threw", failure);
        }
    }

    /** A posted callback failed: count it, tell the observer, then the handler. Never throws. */
    static void reportUnhandled(SyncContext ctx, Throwable failure) {
        ctx.countUnhandled();
        ContextSettings settings = ctx.settings;
        SyncContextObserver observer = settings.observer;
        if (observer != null) {
            try {
                observer.unhandledException(ctx, failure);
            } catch (Throwable observerFailure) {
                LOG.log(System.Logger.Level.ERROR, "SyncContextObserver.unhandledException threw",
                        observerFailure);
            }
        }
        try {
            if (settings.unhandledExceptionHandler != null) {
                settings.unhandledExceptionHandler.accept(ctx, failure);
            } else {
                LOG.log(System.Logger.Level.ERROR, "Unhandled exception in a callback posted to context '"
                        + ctx.name + "'", failure);
            }
        } catch (Throwable handlerFailure) {
            LOG.log(System.Logger.Level.ERROR, "The unhandled-exception handler of context '" + ctx.name
                    + "' threw; the queue goes on. The original failure was: " + failure, handlerFailure);
        }
    }

    /** What a post puts into its slot: the runnable itself (decorated, if so set); a node only for a post chosen for timing. */
    static Object queuedPost(ContextSettings settings, Runnable callback) {
        CallbackDecorator decorator = settings.decorator;
        Object item = decorator == null ? callback : decorator.decorate(callback);
        if (settings.samplingMask >= 0) {
            item = sampledPost(settings.samplingMask, (Runnable) item);
        }
        return item;
    }
}
