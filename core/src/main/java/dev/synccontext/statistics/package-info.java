/**
 * What the contexts of one scope did, with the JDK only: {@link dev.synccontext.statistics.SyncContextStatistics}
 * observes every context of a scope (counts per path and outcome, sampled queue wait, run time and
 * allocation, blocked callbacks) and aggregates them, never one series per context. Exporters read it:
 * {@link dev.synccontext.micrometer.SyncContextMetrics} for Micrometer, the starter's actuator endpoint.
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated.
 */
@NullMarked
package dev.synccontext.statistics;

import org.jspecify.annotations.NullMarked;
