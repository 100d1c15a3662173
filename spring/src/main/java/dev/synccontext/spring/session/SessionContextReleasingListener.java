package dev.synccontext.spring.session;

import jakarta.servlet.http.HttpSessionEvent;
import jakarta.servlet.http.HttpSessionListener;

/**
 * Releases a session's context on this node when the session ends. Servlet containers call it on
 * invalidation and expiry; Spring Session forwards its {@code SessionDestroyedEvent}s to it on every
 * node when its repository publishes them (for Redis: {@code spring.session.data.redis.repository-type=indexed}).
 * Stores that publish no events rely on idle eviction instead (see {@link SessionContexts}).
 * Idempotent: a session that this node never served is ignored.
 *
 * @param contexts the sessions' contexts on this node
 */
public record SessionContextReleasingListener(SessionContexts contexts) implements HttpSessionListener {

    @Override
    public void sessionDestroyed(HttpSessionEvent event) {
        Object handle;
        try {
            handle = event.getSession().getAttribute(SessionHandle.ATTRIBUTE);
        } catch (IllegalStateException alreadyInvalidated) {
            return; // some containers refuse reads after invalidation; idle eviction releases it
        }
        contexts.release(handle);
    }
}
