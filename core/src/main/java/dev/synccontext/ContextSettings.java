package dev.synccontext;

import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/**
 * The settings a context was built with. Immutable and shared by every context a builder makes, so
 * that an idle context stays a handful of fields.
 */
final class ContextSettings {

    final Executor executor;
    /**
     * The executor as a {@link ElasticDrainHints}, resolved once here so that a drain asks it without a type
     * check; null = the executor does not support stepping back (the drain never does).
     */
    final @Nullable ElasticDrainHints drainHints;
    final int maxBatch;
    /** 0 = unbounded. */
    final int maxQueueDepth;
    /** 0 = watchdog off for these contexts. */
    final long blockedThresholdNanos;
    /** Null = the default handler (log at ERROR, count). */
    final @Nullable BiConsumer<RendererSyncContext, Throwable> unhandledExceptionHandler;
    /** Null = no observer: the hot path pays one null check. */
    final @Nullable SyncContextObserver observer;
    /** {@code samplingInterval - 1}, or -1 when sampling is off. */
    final int samplingMask;
    /** Null = queued callbacks are not wrapped. */
    final @Nullable CallbackDecorator decorator;
    /** The kind of context, for reports; null = none given. */
    final @Nullable String scope;

    /** Read by the watchdog and by awaitTermination only, never on the callback path. */
    final ContextClock clock;

    /**
     * The context class loader a drain runs its callbacks with: the one of the thread that made the
     * builder. Read once per drain, never per callback.
     */
    final @Nullable ClassLoader classLoader;

    /** How many looks a blocked waiter offers to run its own call for ({@link QueuedFuture#TURN_SPINS}). */
    final int turnSpins;

    ContextSettings(Executor executor, int maxBatch, int maxQueueDepth, long blockedThresholdNanos,
            @Nullable BiConsumer<RendererSyncContext, Throwable> unhandledExceptionHandler,
            @Nullable SyncContextObserver observer, @Nullable CallbackDecorator decorator, @Nullable String scope,
            ContextClock clock, @Nullable ClassLoader classLoader, int turnSpins) {
        this.executor = executor;
        this.drainHints = executor instanceof ElasticDrainHints pool ? pool : null;
        this.maxBatch = maxBatch;
        this.maxQueueDepth = maxQueueDepth;
        this.blockedThresholdNanos = blockedThresholdNanos;
        this.unhandledExceptionHandler = unhandledExceptionHandler;
        this.observer = observer;
        int interval = observer == null ? 0 : observer.samplingInterval();
        if (interval < 0 || Integer.bitCount(interval) > 1) {
            throw new IllegalArgumentException(
                    "observer.samplingInterval() must be 0 or a power of two, was " + interval);
        }
        this.samplingMask = interval - 1;
        this.decorator = decorator;
        this.scope = scope;
        this.clock = clock;
        this.classLoader = classLoader;
        this.turnSpins = turnSpins;
    }
}
