/**
 * The {@code synccontext} actuator endpoint: settings, scopes, blocked callbacks and sessions (read), and the
 * built-in benchmark scenarios run on this machine (write, with {@code synccontext-scenarios} on the class
 * path).
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.autoconfigure.endpoint;

import org.jspecify.annotations.NullMarked;
