package dev.synccontext.registry;

import dev.synccontext.CallbackDecorator;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.SyncContextDefaults;
import dev.synccontext.statistics.SyncContextStatistics;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/**
 * The settings every context of a {@link SyncContextRegistry} is built with.
 *
 * @param executor where queued callbacks are drained
 * @param executorName how {@code executor} is described (the property value, for example
 *     {@code common-pool})
 * @param maxBatch maximum callbacks one drain runs before it resubmits itself
 * @param maxQueueDepth maximum callbacks waiting per context, 0 = unbounded
 * @param blockedThreshold how long a callback may run before it is reported as blocked, 0 = off
 * @param shutdownTimeout how long queued work of a closing context may take before it is cancelled
 * @param decorator wraps queued callbacks (context propagation), or null
 * @param samplingInterval about one callback in this many is timed and allocation-probed for the
 *     metrics (a power of two; 0 = never)
 */
public record ContextTemplate(
        Executor executor,
        String executorName,
        int maxBatch,
        int maxQueueDepth,
        Duration blockedThreshold,
        Duration shutdownTimeout,
        @Nullable CallbackDecorator decorator,
        int samplingInterval) {

    public ContextTemplate {
        Objects.requireNonNull(executor, "executor");
        if (samplingInterval < 0 || Integer.bitCount(samplingInterval) > 1) {
            throw new IllegalArgumentException("samplingInterval must be 0 or a power of two, was " + samplingInterval);
        }
        Objects.requireNonNull(executorName, "executorName");
        Objects.requireNonNull(blockedThreshold, "blockedThreshold");
        Objects.requireNonNull(shutdownTimeout, "shutdownTimeout");
    }

    /** A template sampling at {@link SyncContextStatistics#DEFAULT_SAMPLING_INTERVAL}. */
    public ContextTemplate(Executor executor, String executorName, int maxBatch, int maxQueueDepth,
            Duration blockedThreshold, Duration shutdownTimeout, @Nullable CallbackDecorator decorator) {
        this(executor, executorName, maxBatch, maxQueueDepth, blockedThreshold, shutdownTimeout, decorator,
                SyncContextStatistics.DEFAULT_SAMPLING_INTERVAL);
    }

    /** A template with the core's defaults on {@code executor}. */
    public static ContextTemplate defaults(Executor executor, String executorName) {
        return new ContextTemplate(executor, executorName, SyncContextDefaults.MAX_BATCH,
                SyncContextDefaults.MAX_QUEUE_DEPTH, SyncContextDefaults.BLOCKED_THRESHOLD,
                SyncContextDefaults.SHUTDOWN_TIMEOUT, null);
    }

    /** A new builder with these settings (and no observer). */
    public RendererSyncContext.Builder newBuilder() {
        RendererSyncContext.Builder builder = RendererSyncContext.builder()
                .executor(executor)
                .maxBatch(maxBatch)
                .maxQueueDepth(maxQueueDepth)
                .blockedThreshold(blockedThreshold);
        if (decorator != null) {
            builder.queuedCallbackDecorator(decorator);
        }
        return builder;
    }
}
