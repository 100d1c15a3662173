package dev.synccontext.spring.session;

import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.web.reactive.function.server.ServerRequest;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebSession;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * One {@link RendererSyncContext} per WebFlux {@link WebSession} on this node: the public way for
 * functional handlers ({@link #contextOf(ServerRequest)}), filters and anything holding a
 * {@link ServerWebExchange} to reach the session's context. Annotated controllers get the same context
 * by declaring a {@code RendererSyncContext} parameter.
 *
 * <pre>{@code
 * Mono<ServerResponse> increment(ServerRequest request) {
 *     return contexts.contextOf(request).flatMap(context -> Mono.fromCallable(counter::increment)
 *             .subscribeOn(Schedulers.fromExecutor(context)))     // runs on the session's context
 *         .flatMap(value -> ServerResponse.ok().bodyValue(value));
 * }
 * // or, once the context is known: someFlux.publishOn(Schedulers.fromExecutor(context)).map(state::apply)
 * }</pre>
 *
 * <p>WebFlux has no session scope (spring-framework#28235). As for servlet sessions, the
 * {@code WebSession} holds only a small {@code String} handle ({@link SessionHandle}), written once,
 * so reactive Spring Session stores it like any attribute; the context lives in this node's
 * {@link SessionContexts} and is released when the session ends: on Spring Session's
 * {@code SessionDestroyedEvent} (repositories that publish it), by idle eviction, at shutdown, and,
 * because an in-memory {@code WebSession} says nothing when it ends, by a sweep at most once per
 * {@code sweepInterval} on a later request that finds sessions seen here expired or invalidated.
 *
 * <p>Thread-safe.
 */
public final class WebSessionContexts {

    private final SessionContexts contexts;
    private final long sweepIntervalNanos;
    /** The latest WebSession seen per handle key, for the sweep. */
    private final Map<String, WebSession> seen = new ConcurrentHashMap<>();
    private final AtomicLong lastSweep;

    public WebSessionContexts(SessionContexts contexts, Duration sweepInterval) {
        this.contexts = Objects.requireNonNull(contexts, "contexts");
        this.sweepIntervalNanos = sweepInterval.toNanos();
        this.lastSweep = new AtomicLong(contexts.clock().nanoTime());
    }

    /** The context of the request's {@code WebSession} (created, with the session, on first use). */
    public Mono<RendererSyncContext> contextOf(ServerRequest request) {
        return contextOf(request.exchange());
    }

    /**
     * The context of the exchange's {@code WebSession} (created, with the session, on first use).
     *
     * <p>Emitted on the thread that subscribed when the session was at hand (in memory, or loaded before), and on
     * {@link Schedulers#parallel()} when the session store answered later: a reactive store answers on its own I/O
     * thread (reactive Spring Session Data Redis on Lettuce's event loop), and what comes next (an
     * {@code @OnContext} body, a live subscription, a durable bean's first read of the state store) runs inline on
     * the context, so on that thread. A blocking Redis call there waits for the very event loop it blocks: the
     * request hangs until the command times out.
     */
    public Mono<RendererSyncContext> contextOf(ServerWebExchange exchange) {
        return Mono.defer(() -> {
            Thread subscriber = Thread.currentThread();
            return exchange.getSession().map(this::contextOf).flatMap(context -> Thread.currentThread() == subscriber
                    ? Mono.just(context) : Mono.just(context).publishOn(Schedulers.parallel()));
        });
    }

    /** The context of {@code session} on this node, created on first use. */
    public RendererSyncContext contextOf(WebSession session) {
        sweepIfDue();
        Map<String, Object> attributes = session.getAttributes();
        SessionContexts.Binding binding = contexts.bind(attributes.get(SessionHandle.ATTRIBUTE), session.getId());
        String write = binding.attributeToWrite();
        if (write != null) {
            attributes.put(SessionHandle.ATTRIBUTE, write);
        }
        SessionHandle handle = SessionHandle.parse(attributes.get(SessionHandle.ATTRIBUTE));
        if (handle != null) {
            seen.put(handle.key(), session);
        }
        return binding.context();
    }

    /** Releases the contexts of sessions seen here that have expired or were invalidated; returns how many. */
    int sweep() {
        int released = 0;
        for (Map.Entry<String, WebSession> entry : seen.entrySet()) {
            WebSession session = entry.getValue();
            Object handle = session.getAttributes().get(SessionHandle.ATTRIBUTE);
            boolean ended = session.isExpired() || SessionHandle.parse(handle) == null;
            if (ended && seen.remove(entry.getKey(), session)) {
                if (contexts.releaseKey(entry.getKey())) {
                    released++;
                }
            } else if (!contexts.hasOpen(entry.getKey())) {
                seen.remove(entry.getKey(), session); // released by an event or idle eviction meanwhile
            }
        }
        return released;
    }

    private void sweepIfDue() {
        long last = lastSweep.get();
        long now = contexts.clock().nanoTime();
        if (now - last >= sweepIntervalNanos && lastSweep.compareAndSet(last, now)) {
            sweep();
        }
    }
}
