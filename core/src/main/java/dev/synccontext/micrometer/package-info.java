/**
 * The Micrometer binder for {@link dev.synccontext.statistics.SyncContextStatistics}: one set of meters
 * per scope (never one series per context), and {@link dev.synccontext.micrometer.ExecutorMetrics} for the
 * default executor's threads. Micrometer is an optional dependency of
 * {@code synccontext-core}: only this package needs it.
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated.
 */
@NullMarked
package dev.synccontext.micrometer;

import org.jspecify.annotations.NullMarked;
