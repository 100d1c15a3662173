/**
 * Boot's wiring of WebFlux's part (the library's {@code dev.synccontext.spring.webflux}).
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.autoconfigure.webflux;

import org.jspecify.annotations.NullMarked;
