/**
 * HTTP sessions and WebFlux {@code WebSession}s: how a session finds its context on this node and how that
 * context is released. The session holds only a small {@code String} handle ({@code SessionHandle}); this
 * node's {@link dev.synccontext.spring.session.SessionContexts} holds the context under it, created on
 * first use and released when the session ends (the container's listener, Spring Session's destroyed
 * events), when idle on this node ({@code synccontext.session.idle-timeout}), or at shutdown. Also the
 * injected {@code rendererSyncContext} of servlet applications (session or request scope).
 *
 * <p>Null-marked (JSpecify): nothing here accepts or returns {@code null} unless annotated {@code @Nullable}.
 */
@NullMarked
package dev.synccontext.spring.session;

import org.jspecify.annotations.NullMarked;
