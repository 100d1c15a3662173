package dev.synccontext.spring.session;

import org.springframework.context.ApplicationListener;
import org.springframework.session.Session;
import org.springframework.session.events.SessionDestroyedEvent;

/**
 * Releases a WebFlux session's context on this node when reactive Spring Session reports the session
 * deleted or expired (repositories that publish events, e.g. the indexed reactive Redis repository,
 * which delivers them on every node). Servlet applications get the same through
 * {@link SessionContextReleasingListener}, to which Spring Session forwards these events. Idempotent.
 */
public final class SessionDestroyedEventReleaser implements ApplicationListener<SessionDestroyedEvent> {

    private final SessionContexts contexts;

    public SessionDestroyedEventReleaser(SessionContexts contexts) {
        this.contexts = contexts;
    }

    @Override
    public void onApplicationEvent(SessionDestroyedEvent event) {
        Session session = event.getSession();
        if (session != null) {
            contexts.release(session.getAttribute(SessionHandle.ATTRIBUTE));
        }
    }
}
