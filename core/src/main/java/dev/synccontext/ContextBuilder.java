package dev.synccontext;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;

/** The {@link RendererSyncContext.Builder}: validates each setting where it is given. */
final class ContextBuilder implements RendererSyncContext.Builder {

    static final int DEFAULT_MAX_BATCH = SyncContextDefaults.MAX_BATCH;
    static final Duration DEFAULT_BLOCKED_THRESHOLD = SyncContextDefaults.BLOCKED_THRESHOLD;
    /** The state word keeps the count in its low bits; see {@link SyncContext}. */
    static final int MAX_QUEUE_DEPTH_LIMIT = SyncContext.COUNT_MASK - 1;

    private static final AtomicLong NEXT_ID = new AtomicLong();

    private @Nullable String name;
    private Executor executor = ElasticExecutor.shared();
    private int maxBatch = DEFAULT_MAX_BATCH;
    private int maxQueueDepth;
    private Duration blockedThreshold = DEFAULT_BLOCKED_THRESHOLD;
    private @Nullable BiConsumer<RendererSyncContext, Throwable> handler;
    private @Nullable SyncContextObserver observer;
    private @Nullable CallbackDecorator decorator;
    private @Nullable String scope;
    private int submitSiteSampling;
    private ContextClock clock = ContextClock.system();
    private int turnSpins = QueuedFuture.TURN_SPINS;
    /**
     * The application this builder belongs to, as its creator's thread sees it: the context class
     * loader its contexts' queued callbacks run with (see {@link RendererSyncContext}, "Class loader").
     */
    private final @Nullable ClassLoader classLoader = Thread.currentThread().getContextClassLoader();
    /** Reused by consecutive builds until a setting other than the name changes. */
    private @Nullable ContextSettings settings;

    @Override
    public RendererSyncContext.Builder name(String name) {
        this.name = Objects.requireNonNull(name, "name");
        return this;
    }

    @Override
    public RendererSyncContext.Builder executor(Executor executor) {
        settings = null;
        this.executor = Objects.requireNonNull(executor, "executor");
        return this;
    }

    @Override
    public RendererSyncContext.Builder maxBatch(int maxBatch) {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be at least 1, was " + maxBatch);
        }
        settings = null;
        this.maxBatch = maxBatch;
        return this;
    }

    @Override
    public RendererSyncContext.Builder maxQueueDepth(int maxQueueDepth) {
        if (maxQueueDepth < 0 || maxQueueDepth > MAX_QUEUE_DEPTH_LIMIT) {
            throw new IllegalArgumentException("maxQueueDepth must be 0 (unbounded) or between 1 and "
                    + MAX_QUEUE_DEPTH_LIMIT + ", was " + maxQueueDepth);
        }
        settings = null;
        this.maxQueueDepth = maxQueueDepth;
        return this;
    }

    @Override
    public RendererSyncContext.Builder blockedThreshold(Duration blockedThreshold) {
        Objects.requireNonNull(blockedThreshold, "blockedThreshold");
        if (blockedThreshold.isNegative()) {
            throw new IllegalArgumentException(
                    "blockedThreshold must be zero (off) or positive, was " + blockedThreshold);
        }
        settings = null;
        this.blockedThreshold = blockedThreshold;
        return this;
    }

    @Override
    public RendererSyncContext.Builder unhandledExceptionHandler(
            BiConsumer<RendererSyncContext, Throwable> handler) {
        settings = null;
        this.handler = Objects.requireNonNull(handler, "handler");
        return this;
    }

    @Override
    public RendererSyncContext.Builder observer(SyncContextObserver observer) {
        settings = null;
        this.observer = Objects.requireNonNull(observer, "observer");
        return this;
    }

    @Override
    public RendererSyncContext.Builder queuedCallbackDecorator(CallbackDecorator decorator) {
        settings = null;
        this.decorator = Objects.requireNonNull(decorator, "decorator");
        return this;
    }

    @Override
    public RendererSyncContext.Builder scope(String scope) {
        settings = null;
        this.scope = Objects.requireNonNull(scope, "scope");
        return this;
    }

    @Override
    public RendererSyncContext.Builder submitSiteSampling(int interval) {
        if (interval < 0 || Integer.bitCount(interval) > 1) {
            throw new IllegalArgumentException("submitSiteSampling must be 0 (off) or a power of two, was "
                    + interval);
        }
        settings = null;
        this.submitSiteSampling = interval;
        return this;
    }

    @Override
    public RendererSyncContext.Builder clock(ContextClock clock) {
        settings = null;
        this.clock = Objects.requireNonNull(clock, "clock");
        return this;
    }

    /**
     * How long a blocked waiter offers to run its own call ({@link QueuedFuture#TURN_SPINS} by default). For
     * this package's tests: {@code Integer.MAX_VALUE} holds a waiter in its offer until it is given its turn,
     * 0 takes the offer away.
     */
    ContextBuilder turnSpins(int turnSpins) {
        settings = null;
        this.turnSpins = turnSpins;
        return this;
    }

    @Override
    public RendererSyncContext build() {
        if (settings == null) {
            long thresholdNanos = saturatedNanos(blockedThreshold);
            // Submit sites are recorded by a decorator outside the user's, so that with sampling off
            // (the default) the queued paths are exactly what they are without it.
            CallbackDecorator queued = submitSiteSampling == 0 ? decorator
                    : new SubmitSites(decorator, submitSiteSampling - 1);
            settings = new ContextSettings(executor, maxBatch, maxQueueDepth, thresholdNanos, handler,
                    observer, queued, scope, clock, classLoader, turnSpins);
            if (thresholdNanos > 0) {
                Watchdog.noteThreshold(clock, thresholdNanos);
            }
        }
        String contextName = name != null ? name : "synccontext-" + NEXT_ID.incrementAndGet();
        return new SyncContext(contextName, settings);
    }

    private static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }
}
