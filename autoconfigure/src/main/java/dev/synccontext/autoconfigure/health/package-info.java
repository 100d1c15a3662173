/**
 * Optional health contributors: the default executor's saturation and the durable state store's reachability
 * ({@code synccontext.health.*}), kept out of the readiness group unless it includes them.
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.autoconfigure.health;

import org.jspecify.annotations.NullMarked;
