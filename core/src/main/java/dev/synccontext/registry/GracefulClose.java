package dev.synccontext.registry;

import dev.synccontext.ContextClock;
import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * How a {@link SyncContextRegistry} closes the contexts it stops tracking: gracefully, with the release
 * hooks' last callbacks queued as each context's final callback, then by force once its queued work
 * outlives {@code shutdownTimeout} ({@link SyncContextRegistry}, "Graceful close"). A forced close is
 * {@link RendererSyncContext#closeNow()}: it never waits for a running callback. Keeps the contexts still
 * closing and counts the forced closes and the posts they dropped. Thread-safe.
 */
final class GracefulClose {

    /** The registry's logger: what a user filters on is the registry's name, wherever its close lives. */
    private static final System.Logger LOG = System.getLogger(SyncContextRegistry.class.getName());

    private final ContextTemplate template;
    private final ContextClock clock;
    final Set<RendererSyncContext> closing = ConcurrentHashMap.newKeySet();
    /**
     * The forced closes set on the clock by {@link #release}, until they run or are cancelled: {@link #closeAll}
     * cancels what is left, so that the clock's timer (a thread that outlives the application) does not
     * keep a released context, and through it the registry and the application, for a shutdown timeout
     * after the application closed.
     */
    private final Map<RendererSyncContext, Future<?>> pendingForcedCloses = new ConcurrentHashMap<>();
    private final List<Function<RendererSyncContext, @Nullable Runnable>> releaseHooks = new CopyOnWriteArrayList<>();
    private final List<Function<RendererSyncContext, @Nullable Runnable>> drainHooks = new CopyOnWriteArrayList<>();
    private final AtomicLong forcedCloses = new AtomicLong();
    private final AtomicLong cancelledPosts = new AtomicLong();

    GracefulClose(ContextTemplate template, ContextClock clock) {
        this.template = template;
        this.clock = clock;
    }

    void addReleaseHook(Function<RendererSyncContext, @Nullable Runnable> hook) {
        releaseHooks.add(hook);
    }

    boolean removeReleaseHook(Function<RendererSyncContext, @Nullable Runnable> hook) {
        return releaseHooks.remove(hook);
    }

    void addDrainHook(Function<RendererSyncContext, @Nullable Runnable> hook) {
        drainHooks.add(hook);
    }

    /**
     * Closes {@code context} because the application shuts down, with the drain hooks' last callbacks as its final
     * one ({@link RendererSyncContext#closeForShutdownAfter}); a forced close still runs them, as it runs a release
     * hook's. Without one it is {@link RendererSyncContext#closeForShutdown()}. A context closed already runs them
     * at once, here.
     */
    void closeForShutdown(RendererSyncContext context) {
        LastCallback last = lastCallback(context, drainHooks);
        if (last == null) {
            context.closeForShutdown();
            return;
        }
        try {
            context.closeForShutdownAfter(last);
        } catch (RejectedExecutionException closedAlready) {
            context.closeForShutdown(); // the refusals' reason, as for every context the drain closes
            last.run();
        }
    }

    /**
     * Closes a context the registry no longer tracks, without blocking: its last callbacks queued, a forced
     * close set on the clock for {@code shutdownTimeout} later, cancelled once the last callback ran.
     */
    void release(RendererSyncContext context) {
        LastCallback last = postLastCallbacks(context);
        context.close();
        if (terminated(context)) {
            return;
        }
        closing.add(context);
        // On the clock's timer (one daemon thread for the system clock): a forced close is closeNow(),
        // which never waits for a running callback, so it never parks that thread.
        Future<?> forcedClose = clock.schedule(() -> {
            pendingForcedCloses.remove(context);
            forceIfRunning(context);
        }, template.shutdownTimeout());
        pendingForcedCloses.put(context, forcedClose);
        if (forcedClose.isDone()) {
            pendingForcedCloses.remove(context); // it ran before it was put
        }
        if (last != null) {
            // Nothing of the context runs after its last callback: once that has run, neither the closing
            // set nor the timer's pending forced close may keep the released context reachable for the
            // rest of the shutdown timeout (a session's context and what it holds, per ended session).
            last.afterward(() -> {
                closing.remove(context);
                pendingForcedCloses.remove(context);
                forcedClose.cancel(false);
            });
        }
    }

    /**
     * Closes {@code open} (whose last callbacks were posted) and every context still closing, lets queued
     * work finish within one {@code shutdownTimeout} for all of them, then force-closes what is left.
     * Blocks until done.
     */
    void closeAll(List<RendererSyncContext> open) {
        List<RendererSyncContext> all = new ArrayList<>(closing);
        all.addAll(open);
        all.forEach(RendererSyncContext::close);
        long deadline = clock.nanoTime() + nanos(template.shutdownTimeout());
        boolean interrupted = false;
        for (RendererSyncContext context : all) {
            try {
                long left = Math.max(0, deadline - clock.nanoTime());
                if (!context.awaitTermination(Duration.ofNanos(left))) {
                    forceIfRunning(context);
                }
            } catch (InterruptedException e) {
                interrupted = true;
                forceIfRunning(context);
            } catch (IllegalStateException calledFromInside) {
                LOG.log(System.Logger.Level.WARNING, "Registry closed from a callback of context '" + context.name()
                        + "'; that context finishes its queued work on its own");
            }
        }
        closing.clear();
        // Each was forced above if it had to be; what is left on the timer would only hold them.
        pendingForcedCloses.values().forEach(pending -> pending.cancel(false));
        pendingForcedCloses.clear();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Force-closes {@code context} unless it has terminated; true if this call forced it. */
    boolean forceIfRunning(RendererSyncContext context) {
        try {
            if (!terminated(context)) {
                List<Runnable> dropped = new ArrayList<>(context.closeNow());
                // A last callback a hook asked for still runs, here: it releases what the context held.
                dropped.removeIf(post -> post instanceof LastCallback last && last.runAfterForcedClose());
                // Publish in this order: whoever sees the forced close counted sees the rest of it.
                closing.remove(context);
                cancelledPosts.addAndGet(dropped.size());
                forcedCloses.incrementAndGet();
                LOG.log(System.Logger.Level.WARNING, "Context '" + context.name() + "' still had queued work " + template.shutdownTimeout()
                        + " after it was closed; it was force-closed: pending futures were cancelled and "
                        + dropped.size() + " posted callback(s) dropped");
                return true;
            }
            return false;
        } finally {
            closing.remove(context);
        }
    }

    /**
     * Closes {@code context} with the hooks' last callbacks as its final one ({@link RendererSyncContext#closeAfter}:
     * queued and closed in one step, so no callback accepted later can run after them); returns it, or null
     * when no hook asked for one or it ran here already (the context was closed).
     */
    @Nullable LastCallback postLastCallbacks(RendererSyncContext context) {
        LastCallback callback = lastCallback(context, releaseHooks);
        if (callback == null) {
            context.close();
            return null;
        }
        try {
            context.closeAfter(callback);
            return callback;
        } catch (RejectedExecutionException closedAlready) {
            callback.run();
            return null;
        }
    }

    /** What {@code hooks} ask to run last on {@code context}, as one callback; null when none asked. */
    private static @Nullable LastCallback lastCallback(RendererSyncContext context,
            List<Function<RendererSyncContext, @Nullable Runnable>> hooks) {
        List<Runnable> lasts = new ArrayList<>();
        for (Function<RendererSyncContext, @Nullable Runnable> hook : hooks) {
            try {
                Runnable last = hook.apply(context);
                if (last != null) {
                    lasts.add(last);
                }
            } catch (RuntimeException | Error failure) {
                LOG.log(System.Logger.Level.ERROR, "A release hook failed for context '" + context.name() + "'", failure);
            }
        }
        if (lasts.isEmpty()) {
            return null;
        }
        return new LastCallback(context, lasts.size() == 1 ? lasts.get(0) : () -> runAll(lasts));
    }

    /** Runs every hook's last callback, in registration order, even when one fails; then throws the first failure. */
    private static void runAll(List<Runnable> lasts) {
        Throwable first = null;
        for (Runnable last : lasts) {
            try {
                last.run();
            } catch (RuntimeException | Error failure) {
                if (first == null) {
                    first = failure;
                } else {
                    first.addSuppressed(failure);
                }
            }
        }
        if (first instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (first instanceof Error error) {
            throw error;
        }
    }

    /** A release hook's last callback: runs once, on the context or after its forced close. */
    private static final class LastCallback implements Runnable {
        private final RendererSyncContext context;
        private final Runnable delegate;
        private final AtomicBoolean ran = new AtomicBoolean();
        /** Null until {@link #afterward} or the end of {@link #run}; then the follow-up, or {@link #FINISHED}. */
        private final AtomicReference<@Nullable Runnable> then = new AtomicReference<>();

        LastCallback(RendererSyncContext context, Runnable delegate) {
            this.context = context;
            this.delegate = delegate;
        }

        @Override
        public void run() {
            if (ran.compareAndSet(false, true)) {
                try {
                    delegate.run();
                } finally {
                    Runnable follow = then.getAndSet(FINISHED);
                    if (follow != null) {
                        follow.run();
                    }
                }
            }
        }

        /**
         * Runs {@code followUp} once this callback has run: right after it, or at once if it has run
         * already (the releasing thread may hand it over only after the context ran its last callback).
         */
        void afterward(Runnable followUp) {
            if (!then.compareAndSet(null, followUp)) {
                followUp.run();
            }
        }

        private static final Runnable FINISHED = () -> { };

        /** Runs it after a forced close dropped it; true (it is not a dropped user callback). */
        boolean runAfterForcedClose() {
            try {
                run();
            } catch (RuntimeException | Error failure) {
                LOG.log(System.Logger.Level.ERROR, "The last callback of force-closed context '" + context.name()
                        + "' failed", failure);
            }
            return true;
        }
    }

    private static boolean terminated(RendererSyncContext context) {
        try {
            return context.awaitTermination(Duration.ZERO);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (IllegalStateException calledFromInside) {
            return false; // released from one of its own callbacks: that callback is still running
        }
    }

    long forcedCloses() {
        return forcedCloses.get();
    }

    long cancelledPosts() {
        return cancelledPosts.get();
    }

    private static long nanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }
}
