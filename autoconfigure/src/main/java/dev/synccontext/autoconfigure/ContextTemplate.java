package dev.synccontext.autoconfigure;

import dev.synccontext.CallbackDecorator;
import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/**
 * The settings every context of a {@link RendererSyncContextRegistry} is built with.
 *
 * @param executor where queued callbacks are drained
 * @param executorName how {@code executor} is described (the property value, for example
 *     {@code common-pool})
 * @param maxBatch maximum callbacks one drain runs before it resubmits itself
 * @param maxQueueDepth maximum callbacks waiting per context, 0 = unbounded
 * @param blockedThreshold how long a callback may run before it is reported as blocked, 0 = off
 * @param shutdownTimeout how long queued work of a closing context may take before it is cancelled
 * @param decorator wraps queued callbacks (context propagation), or null
 */
public record ContextTemplate(
        Executor executor,
        String executorName,
        int maxBatch,
        int maxQueueDepth,
        Duration blockedThreshold,
        Duration shutdownTimeout,
        @Nullable CallbackDecorator decorator) {

    public ContextTemplate {
        Objects.requireNonNull(executor, "executor");
        Objects.requireNonNull(executorName, "executorName");
        Objects.requireNonNull(blockedThreshold, "blockedThreshold");
        Objects.requireNonNull(shutdownTimeout, "shutdownTimeout");
    }

    /** A template with the core's defaults on {@code executor}. */
    public static ContextTemplate defaults(Executor executor, String executorName) {
        return new ContextTemplate(executor, executorName, 64, 0, Duration.ofSeconds(2), Duration.ofSeconds(30), null);
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
