/**
 * Handlers that run on their context: {@link dev.synccontext.spring.handler.OnContext @OnContext} on a
 * Spring MVC, WebFlux or STOMP handler method (or its class) runs its body on the session's context. Each web
 * stack's part ({@code mvc}, {@code webflux}, {@code websocket}) carries out the annotation for its stack;
 * {@code handler.coroutines} runs Kotlin {@code suspend} handler methods as coroutines on their context.
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.spring.handler;

import org.jspecify.annotations.NullMarked;
