/**
 * The {@code synccontext} actuator endpoint: settings, scopes (one path each), blocked callbacks, sessions and
 * who holds the most (read; stacks, call sites and the top lists behind {@code synccontext.endpoint.show-details}),
 * and the built-in benchmark scenarios run on this machine (write, with {@code synccontext-scenarios} on the
 * class path).
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.autoconfigure.endpoint;

import org.jspecify.annotations.NullMarked;
