package dev.synccontext.spring.session;

import dev.synccontext.RendererSyncContext;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import dev.synccontext.spring.ScopedSyncContext;

/**
 * The current HTTP request's session context, for the injected {@code RendererSyncContext} proxy
 * ({@link ScopedSyncContext}) with {@code synccontext.scope=session}.
 *
 * <p>The session holds only its handle (see {@link SessionHandle}); the context is this node's, from
 * {@link SessionContexts}. The first resolution in a request looks the handle up, writes it to the
 * session only if it is new or names another node, and caches the context in a request attribute, so
 * further calls through the proxy during the same request cost one request-attribute read, and a
 * session store sees no write for the handle on later requests.
 *
 * <p>Fails like a session-scoped bean outside a request: {@code IllegalStateException} from
 * {@link RequestContextHolder#currentRequestAttributes()}.
 */
public final class CurrentHttpSessionContext {

    /** Request attribute caching the context resolved for this request. */
    static final String RESOLVED = CurrentHttpSessionContext.class.getName() + ".RESOLVED";

    private final SessionContexts contexts;

    public CurrentHttpSessionContext(SessionContexts contexts) {
        this.contexts = contexts;
    }

    public RendererSyncContext current() {
        RequestAttributes request = RequestContextHolder.currentRequestAttributes();
        if (request.getAttribute(RESOLVED, RequestAttributes.SCOPE_REQUEST) instanceof RendererSyncContext resolved
                && !resolved.isClosed()) {
            return resolved;
        }
        String sessionId = request.getSessionId(); // creates the session if there is none
        Object handle = request.getAttribute(SessionHandle.ATTRIBUTE, RequestAttributes.SCOPE_SESSION);
        SessionContexts.Binding binding = contexts.bind(handle, sessionId);
        if (binding.attributeToWrite() != null) {
            request.setAttribute(SessionHandle.ATTRIBUTE, binding.attributeToWrite(), RequestAttributes.SCOPE_SESSION);
        }
        request.setAttribute(RESOLVED, binding.context(), RequestAttributes.SCOPE_REQUEST);
        return binding.context();
    }
}
