/**
 * Context-scoped beans: {@link dev.synccontext.spring.scope.ContextScoped @ContextScoped} state lives one
 * instance per context (HTTP session, request, WebSocket/STOMP session, WebSession, registry key), resolves on
 * the request thread and inside any callback of that context, and is destroyed on the context after its last
 * callback when the context is released. A bean may declare its kind of context
 * ({@link dev.synccontext.spring.scope.ContextKind}, a key pattern) and is then never created in another;
 * {@link dev.synccontext.spring.scope.ContextBeanScope#find} reads a context's instance without creating it;
 * {@link dev.synccontext.spring.scope.ProxyableBeansCheck} fails the startup for a class its proxy cannot
 * stand for (final methods would run on the proxy's own fields, shared by every session).
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.spring.scope;

import org.jspecify.annotations.NullMarked;
