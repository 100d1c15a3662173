/**
 * Metrics for {@link dev.synccontext.RendererSyncContext}s, aggregated per scope (never one series per
 * context): {@link dev.synccontext.micrometer.SyncContextStatistics} observes the contexts with the JDK
 * only, and {@link dev.synccontext.micrometer.SyncContextMetrics} exports it to Micrometer, which is an
 * optional dependency of {@code synccontext-core}: only this package needs it.
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated.
 */
@NullMarked
package dev.synccontext.micrometer;

import org.jspecify.annotations.NullMarked;
