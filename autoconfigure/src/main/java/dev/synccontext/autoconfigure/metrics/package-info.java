/**
 * Micrometer metrics: one set of meters per scope ({@code synccontext.*}, tagged {@code scope}, never one
 * series per session), the session counters (hand-offs, splits, releases, idle evictions), and the default
 * executor's threads by state, compensations and cap reached.
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.autoconfigure.metrics;

import org.jspecify.annotations.NullMarked;
