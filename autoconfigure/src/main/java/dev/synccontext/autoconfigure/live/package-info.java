/**
 * Boot's wiring of live channels (the library's {@code dev.synccontext.spring.live}) with the
 * {@code synccontext.live.*} settings.
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.autoconfigure.live;

import org.jspecify.annotations.NullMarked;
