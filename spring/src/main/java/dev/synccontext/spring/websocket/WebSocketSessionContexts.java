package dev.synccontext.spring.websocket;

import dev.synccontext.RendererSyncContext;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import dev.synccontext.registry.SyncContextRegistry;
import org.jspecify.annotations.Nullable;

/**
 * One {@link RendererSyncContext} per WebSocket session (plain or STOMP), of scope {@value #SCOPE}:
 * opened when the session connects, released when it ends, and found from the session's attributes in
 * between.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li>A session gets <b>at most one context in its life</b>: {@link #open} is idempotent, and after
 *       {@link #release} the session keeps its closed context, so a frame that is still being handled
 *       after the session ended (Spring's inbound channel handles a STOMP session's frames on a pool, so
 *       some may run after the disconnect) is refused by that closed context
 *       ({@code RejectedExecutionException}, in the future of {@code invokeAsync}) instead of silently
 *       creating a new context that nobody would release.</li>
 *   <li>Two sessions never share a context: the binding lives in each session's own attribute map.</li>
 *   <li>{@link #release} closes the context gracefully through the {@link SyncContextRegistry}:
 *       queued work may finish within {@code synccontext.shutdown-timeout}, then it is cancelled. Releasing
 *       twice (STOMP may report a disconnect twice) does nothing the second time.</li>
 * </ul>
 *
 * <h2>Where the binding lives</h2>
 * In the session's attribute map ({@code WebSocketSession.getAttributes()}, which STOMP exposes as the
 * message's session attributes), under {@link #ATTRIBUTE}, like the HTTP session's handle lives in its
 * session: it dies with the session, so there is no global map to leak. Contexts are named by the
 * registry ({@code websocket-17}), never after the session id, since names appear in logs and in the
 * actuator endpoint.
 *
 * <p>Thread-safe, provided the attribute map is (Spring's WebSocket sessions use a
 * {@code ConcurrentHashMap}): opening and releasing synchronize on the map, finding does not lock.
 */
public final class WebSocketSessionContexts {

    /** The metrics {@code scope} tag of WebSocket session contexts. */
    public static final String SCOPE = "websocket";

    /** The session attribute that holds the session's context. */
    public static final String ATTRIBUTE = WebSocketSessionContexts.class.getName() + ".context";

    private final SyncContextRegistry registry;

    /** Stands in for the context of a session that ended before it ever opened one: refuses everything. */
    private final RendererSyncContext ended;

    public WebSocketSessionContexts(SyncContextRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
        registry.statistics(SCOPE); // its meters exist from startup, at 0
        this.ended = registry.createUntracked(SCOPE, SCOPE + "-ended");
        this.ended.close();
    }

    /**
     * The session's context, created now if it has none. After {@link #release} it is the session's closed
     * context (see the class comment).
     *
     * @param sessionAttributes the session's attribute map
     */
    public RendererSyncContext open(Map<String, Object> sessionAttributes) {
        RendererSyncContext context = bound(sessionAttributes);
        if (context != null) {
            return context;
        }
        synchronized (sessionAttributes) {
            context = bound(sessionAttributes);
            if (context == null) { // re-checked under the lock: two threads opening one session get one context
                context = registry.create(SCOPE);
                sessionAttributes.put(ATTRIBUTE, context);
            }
            return context;
        }
    }

    /** The session's context, if it was opened (open, or closed because the session ended). */
    public Optional<RendererSyncContext> find(Map<String, Object> sessionAttributes) {
        return Optional.ofNullable(bound(sessionAttributes));
    }

    /**
     * The session's context.
     *
     * @throws IllegalStateException if it was never {@link #open opened}: for STOMP, the session has not sent
     *     CONNECT; for a plain WebSocket, its handler is not wrapped in {@link SyncContextWebSocketHandler}
     */
    public RendererSyncContext require(Map<String, Object> sessionAttributes) {
        RendererSyncContext context = bound(sessionAttributes);
        if (context == null) {
            throw new IllegalStateException("This WebSocket session has no RendererSyncContext: a STOMP session gets"
                    + " one when it sends CONNECT, a plain WebSocket session when its handler is wrapped in"
                    + " SyncContextWebSocketHandler");
        }
        return context;
    }

    /**
     * Closes the session's context gracefully and keeps it (closed) in the session, so nothing can open
     * another one for it. A session that never opened one gets a closed stand-in.
     *
     * @return whether an open context was released by this call
     */
    public boolean release(Map<String, Object> sessionAttributes) {
        synchronized (sessionAttributes) {
            RendererSyncContext context = bound(sessionAttributes);
            if (context == null) {
                sessionAttributes.put(ATTRIBUTE, ended);
                return false;
            }
            if (context.isClosed()) {
                return false;
            }
            registry.release(context); // never blocks: it closes the context and lets its queue drain
            return true;
        }
    }

    private static @Nullable RendererSyncContext bound(Map<String, Object> sessionAttributes) {
        Objects.requireNonNull(sessionAttributes, "sessionAttributes");
        return sessionAttributes.get(ATTRIBUTE) instanceof RendererSyncContext context ? context : null;
    }
}
