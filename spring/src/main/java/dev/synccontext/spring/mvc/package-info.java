/**
 * Spring MVC: {@link dev.synccontext.spring.handler.OnContext @OnContext} handler methods run on the
 * request's session context ({@link dev.synccontext.spring.mvc.OnContextHandlerAdapter}, supplied
 * through a {@code WebMvcRegistrations} bean), and a controller's already-completed {@code CompletableFuture}
 * (an inline {@code invokeAsync}) is written at once, without an async dispatch.
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.spring.mvc;

import org.jspecify.annotations.NullMarked;
