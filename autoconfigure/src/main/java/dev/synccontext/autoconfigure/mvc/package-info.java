/**
 * Boot's wiring of Spring MVC's part (the library's {@code dev.synccontext.spring.mvc}): the handler adapter
 * that runs {@code @OnContext} bodies on their context, the return-value handlers, the shutdown answer.
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.autoconfigure.mvc;

import org.jspecify.annotations.NullMarked;
