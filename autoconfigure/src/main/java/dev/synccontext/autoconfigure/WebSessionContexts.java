package dev.synccontext.autoconfigure;

import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.web.server.WebSession;

/**
 * One {@link RendererSyncContext} per WebFlux {@link WebSession}: WebFlux has no session scope
 * (spring-framework#28235), so the context lives in a session attribute and is tracked here.
 *
 * <p>A {@code WebSession} says nothing when it ends, so ended sessions are found by a sweep: at most
 * once per {@code sweepInterval}, on the next request that asks for a context, every tracked context
 * whose session has expired or was invalidated (its attribute is gone) is released to the registry,
 * which closes it gracefully. Contexts of sessions that end while no request comes are released at the
 * next one, or at shutdown.
 */
final class WebSessionContexts {

    static final String ATTRIBUTE = RendererSyncContext.class.getName();

    private final RendererSyncContextRegistry registry;
    private final String scope;
    private final long sweepIntervalNanos;
    private final Map<RendererSyncContext, WebSession> sessions = new ConcurrentHashMap<>();
    private final AtomicLong lastSweep = new AtomicLong(System.nanoTime());

    WebSessionContexts(RendererSyncContextRegistry registry, String scope, Duration sweepInterval) {
        this.registry = registry;
        this.scope = scope;
        this.sweepIntervalNanos = sweepInterval.toNanos();
    }

    /** The context of {@code session}, created on first use. */
    RendererSyncContext contextOf(WebSession session) {
        sweepIfDue();
        Object context = session.getAttributes().compute(ATTRIBUTE, (key, existing) -> {
            if (existing instanceof RendererSyncContext ctx && !ctx.isClosed()) {
                return ctx;
            }
            RendererSyncContext created = registry.create(scope);
            sessions.put(created, session);
            return created;
        });
        return (RendererSyncContext) context;
    }

    /** Releases the contexts of sessions that have ended; returns how many. */
    int sweep() {
        int released = 0;
        for (Map.Entry<RendererSyncContext, WebSession> entry : sessions.entrySet()) {
            RendererSyncContext context = entry.getKey();
            WebSession session = entry.getValue();
            if (session.isExpired() || session.getAttributes().get(ATTRIBUTE) != context || context.isClosed()) {
                if (sessions.remove(context, session)) {
                    registry.release(context);
                    released++;
                }
            }
        }
        return released;
    }

    private void sweepIfDue() {
        long last = lastSweep.get();
        long now = System.nanoTime();
        if (now - last >= sweepIntervalNanos && lastSweep.compareAndSet(last, now)) {
            sweep();
        }
    }
}
