/**
 * Boot's wiring of the context scope (the library's {@code dev.synccontext.spring.scope}).
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.autoconfigure.scope;

import org.jspecify.annotations.NullMarked;
