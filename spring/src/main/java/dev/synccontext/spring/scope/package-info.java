/**
 * Context-scoped beans: {@link dev.synccontext.spring.scope.ContextScoped @ContextScoped} state lives one
 * instance per context (HTTP session, request, WebSocket/STOMP session, WebSession, registry key), resolves on
 * the request thread and inside any callback of that context, and is destroyed on the context after its last
 * callback when the context is released.
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.spring.scope;

import org.jspecify.annotations.NullMarked;
