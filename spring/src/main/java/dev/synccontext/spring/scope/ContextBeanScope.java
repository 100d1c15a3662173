package dev.synccontext.spring.scope;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.registry.ContextProxy;
import dev.synccontext.registry.SyncContextRegistry;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectFactory;
import org.springframework.beans.factory.config.Scope;
import org.springframework.util.PatternMatchUtils;

/**
 * The {@value ContextScoped#SCOPE_NAME} scope: {@link ContextScoped} beans kept per context of the
 * registry, destroyed by the registry's release hook (the last callback of the released context).
 *
 * <p>Which context a call belongs to: the context whose callback runs on this thread, if it is one of the
 * registry's; else (unless strict) the first of the current-context proxies that resolves on this thread
 * (the injected HTTP session/request proxy, the {@code @WebSocketSessionContext} proxy). Per call this is
 * one thread-local read and two map lookups inside a callback. Where no context is current, calls fail with
 * {@link NoCurrentContextException}; in a WebFlux application that is everywhere but inside a callback of the
 * WebSession's context, because WebFlux binds no request to a thread ({@link #WEBFLUX_FIX}).
 */
public final class ContextBeanScope implements Scope {

    private final Supplier<SyncContextRegistry> registry;
    private volatile @Nullable SyncContextRegistry resolvedRegistry;
    private volatile @Nullable List<ContextProxy> resolvedProxies;
    private final Supplier<List<ContextProxy>> proxies;
    private final boolean strict;
    private final Map<RendererSyncContext, ContextBeans> byContext = new ConcurrentHashMap<>();
    /**
     * Contexts whose beans were destroyed (weakly held: an ended session's context must not stay reachable
     * through it). Read on the slow path only, when a context has no beans.
     */
    private final Set<RendererSyncContext> destroyed = Collections.synchronizedSet(
            Collections.newSetFromMap(new WeakHashMap<>()));
    private volatile boolean hooked;
    private final Function<String, @Nullable ContextScoped> declarations;
    /** Each bean's declared kind, read once from its {@link ContextScoped} on its first creation. */
    private final Map<String, Kind> kinds = new ConcurrentHashMap<>();
    /** The durable layer, when one is installed; null keeps the call path as it was. */
    private volatile @Nullable ContextBeanTracking tracking;
    /** Bean name → whether {@link #tracking} tracks it, asked once per name. */
    private final Map<String, Boolean> trackedNames = new ConcurrentHashMap<>();

    public ContextBeanScope(Supplier<SyncContextRegistry> registry, Supplier<List<ContextProxy>> proxies, boolean strict) {
        this(registry, proxies, strict, name -> null);
    }

    /**
     * @param declarations a bean's {@link ContextScoped} annotation by bean name (null when it has none), for
     *     its declared {@link ContextScoped#kind() kind} and {@link ContextScoped#key() key}
     */
    public ContextBeanScope(Supplier<SyncContextRegistry> registry, Supplier<List<ContextProxy>> proxies, boolean strict,
            Function<String, @Nullable ContextScoped> declarations) {
        this.registry = registry;
        this.proxies = proxies;
        this.strict = strict;
        this.declarations = declarations;
    }

    @Override
    public Object get(String name, ObjectFactory<?> objectFactory) {
        RendererSyncContext running = RendererSyncContext.current().orElse(null);
        if (running != null) {
            ContextBeans beans = byContext.get(running);
            Object existing = beans == null ? null : beans.existing(name);
            if (existing != null) {
                return touch(running, name, existing); // inside a callback of a context that has this bean already
            }
        }
        RendererSyncContext context = currentContext(running, name);
        checkKind(name, context);
        return touch(context, name, beansOf(context).get(name, tracked(context, name, objectFactory)));
    }

    /**
     * The instance of type {@code type} that {@code context} holds already, if any: <b>never creates</b> one,
     * on any thread, and does not make the context current. For code that must not make state appear where
     * there was none (a broadcast reading each room's optional bean, a scheduler looking at a session).
     * {@code context} may be the injected current-context proxy; it is resolved first.
     *
     * @throws IllegalStateException if the context holds more than one bean of {@code type}
     */
    public <T> Optional<T> find(RendererSyncContext context, Class<T> type) {
        ContextBeans beans = byContext.get(registry().resolve(context));
        if (beans == null) {
            return Optional.empty();
        }
        List<Object> matching = beans.instances().stream().filter(type::isInstance).toList();
        if (matching.size() > 1) {
            throw new IllegalStateException("Context '" + context.name() + "' holds " + matching.size()
                    + " context-scoped beans of type " + type.getName() + "; find by a more specific type");
        }
        return matching.isEmpty() ? Optional.empty() : Optional.of(type.cast(matching.get(0)));
    }

    /**
     * Installs the layer told of tracked beans' creation and calls (the durable state); one per scope, before the
     * first bean is created.
     */
    public void track(ContextBeanTracking tracking) {
        this.tracking = Objects.requireNonNull(tracking, "tracking");
    }

    private boolean isTracked(ContextBeanTracking t, String name) {
        Boolean known = trackedNames.get(name);
        if (known == null) {
            known = t.tracks(name);
            trackedNames.put(name, known);
        }
        return known;
    }

    private ObjectFactory<?> tracked(RendererSyncContext context, String name, ObjectFactory<?> factory) {
        ContextBeanTracking t = tracking;
        if (t == null || !isTracked(t, name)) {
            return factory;
        }
        return () -> t.created(context, name, factory.getObject());
    }

    private Object touch(RendererSyncContext context, String name, Object bean) {
        ContextBeanTracking t = tracking;
        if (t != null && isTracked(t, name)) {
            t.touched(context, name);
        }
        return bean;
    }

    @Override
    public @Nullable Object remove(String name) {
        ContextBeans beans = byContext.get(currentContext(RendererSyncContext.current().orElse(null), name));
        return beans == null ? null : beans.remove(name);
    }

    @Override
    public void registerDestructionCallback(String name, Runnable callback) {
        beansOf(currentContext(RendererSyncContext.current().orElse(null), name))
                .registerDestructionCallback(name, callback);
    }

    @Override
    public @Nullable Object resolveContextualObject(String key) {
        return null;
    }

    @Override
    public @Nullable String getConversationId() {
        RendererSyncContext running = RendererSyncContext.current().orElse(null);
        return running == null ? null : running.name();
    }

    /**
     * The bean {@code name} of the context whose callback runs on this thread, if it exists already; null
     * otherwise (then the bean factory resolves, creates or refuses it). The proxy's fast path: a
     * thread-local read and two lock-free map lookups.
     */
    @Nullable Object existingInRunningContext(String name) {
        RendererSyncContext running = RendererSyncContext.current().orElse(null);
        if (running == null) {
            return null;
        }
        ContextBeans beans = byContext.get(running);
        Object bean = beans == null ? null : beans.existing(name);
        return bean == null ? null : touch(running, name, bean);
    }

    /** What a bean's {@link ContextScoped} says about the contexts it may be created in. */
    private record Kind(ContextKind kind, String key) {
        static final Kind ANY = new Kind(ContextKind.CURRENT, "");

        static Kind of(String name, @Nullable ContextScoped declared) {
            if (declared == null || (declared.kind() == ContextKind.CURRENT && declared.key().isEmpty())) {
                return ANY;
            }
            ContextKindDeclarations.check(name, declared);
            return new Kind(declared.key().isEmpty() ? declared.kind() : ContextKind.KEYED, declared.key());
        }

        String describe() {
            return key.isEmpty() ? "@ContextScoped(kind = " + kind + ")" : "@ContextScoped(key = \"" + key + "\")";
        }
    }

    /** Refuses to create a bean that declares a kind of context in a context of another kind. */
    private void checkKind(String name, RendererSyncContext context) {
        Kind declared = kinds.computeIfAbsent(name, n -> Kind.of(n, declarations.apply(n)));
        if (declared == Kind.ANY) {
            return;
        }
        SyncContextRegistry r = registry();
        String scope = declared.kind().registryScope();
        boolean ofKind = scope != null && r.belongsTo(context, scope);
        if (ofKind && (declared.key().isEmpty() || PatternMatchUtils.simpleMatch(declared.key(), context.name()))) {
            return;
        }
        String running = "context '" + context.name() + "'";
        for (ContextKind kind : ContextKind.values()) {
            String kindScope = kind.registryScope();
            if (kindScope != null && r.belongsTo(context, kindScope)) {
                running += " (a " + kind + " context)";
                break;
            }
        }
        throw new WrongContextKindException("Context-scoped bean '" + name + "' is " + declared.describe()
                + " but was called in " + running + "; nothing was created there. A bean of one kind of context"
                + " is never made for another (a fresh, empty instance would hide the mistake). Call it from its own"
                + " kind of context: keep that context (registry.resolve(context), registry.find(key)) and hop onto"
                + " it with invokeAsync/ask, or pass the values the callback needs; ContextBeanScope.find(context,"
                + " type) reads a context's bean without creating it.");
    }

    /** How many contexts hold context-scoped beans now (for tests and diagnostics). */
    int contextsWithBeans() {
        return byContext.size();
    }

    private ContextBeans beansOf(RendererSyncContext context) {
        hookOnce();
        ContextBeans beans = byContext.get(context);
        if (beans != null) {
            return beans;
        }
        if (destroyed.contains(context)) {
            // A callback accepted while the context was being released, which the context ran after the
            // release hook's last callback: new beans now would never be destroyed, and would keep the
            // context reachable for good.
            throw new IllegalStateException("Context '" + context.name() + "' was released and its context-scoped"
                    + " beans were destroyed after its last callback; this callback was accepted during the release"
                    + " and runs after them. Keep a reference to the instance itself for work that may run this late.");
        }
        if (context.isClosed() && !context.checkAccess()) {
            // Released: its last callback may already have destroyed the beans; a new instance would leak.
            throw new IllegalStateException("Context '" + context.name() + "' is closed; its context-scoped beans"
                    + " are destroyed with it and none is created any more");
        }
        return byContext.computeIfAbsent(context, c -> new ContextBeans(c.name()));
    }

    /** The registry, looked up once: the scope is registered before the registry bean exists. */
    private SyncContextRegistry registry() {
        SyncContextRegistry r = resolvedRegistry;
        if (r == null) {
            r = registry.get();
            resolvedRegistry = r;
        }
        return r;
    }

    private void hookOnce() {
        if (!hooked) {
            synchronized (this) {
                if (!hooked) {
                    registry().onRelease(context -> () -> {
                        destroyed.add(context);
                        ContextBeans beans = byContext.remove(context);
                        if (beans != null) {
                            beans.destroy();
                        }
                    });
                    hooked = true;
                }
            }
        }
    }

    private RendererSyncContext currentContext(@Nullable RendererSyncContext running, String beanName) {
        if (running != null) {
            // A released context finishing its queued work is closed and no longer tracked; its beans are still
            // destroyed by its last callback, which runs after the callback making this call.
            if (!running.isClosed() && !registry().tracks(running) && !destroyed.contains(running)) {
                throw new NoCurrentContextException("Context-scoped bean '" + beanName + "' was called from a callback of"
                        + " context '" + running.name() + "', which the SyncContextRegistry did not create: only"
                        + " the registry's contexts (session, request, WebSocket, keyed) release their beans."
                        + " Use registry.forKey(...) or the injected RendererSyncContext instead.");
            }
            return running;
        }
        if (strict) {
            throw new NoCurrentContextException("Context-scoped bean '" + beanName + "' was called on thread '"
                    + Thread.currentThread().getName() + "', which is not running a callback of any context"
                    + " (synccontext.context-scope.strict=true). Call it inside context.invokeAsync(...).");
        }
        List<ContextProxy> candidates = resolvedProxies;
        if (candidates == null) {
            candidates = List.copyOf(proxies.get()); // singletons: looked up once, on the first call off a callback
            resolvedProxies = candidates;
        }
        for (ContextProxy proxy : candidates) {
            RendererSyncContext target = resolve(proxy);
            if (target != null) {
                return target;
            }
        }
        throw new NoCurrentContextException("Context-scoped bean '" + beanName + "' was called on thread '"
                + Thread.currentThread().getName() + "', which has no context: it resolves inside a callback of a"
                + " context (invokeAsync, post, send, an @OnContext handler's body) on any thread, and on a thread that"
                + " handles an HTTP request of a servlet application or a STOMP message. " + WEBFLUX_FIX + " From a"
                + " scheduler or another session, hop onto the context first: registry.forKey(key).invokeAsync(...)"
                + " or a context kept with registry.resolve(...).");
    }

    /**
     * Why a WebFlux handler, filter or operator finds no context, and the fix. WebFlux binds no request to a
     * thread: an event loop serves many sessions' exchanges interleaved, and a {@code WebSession} is reached
     * only asynchronously ({@code exchange.getSession()} is a {@code Mono}, a store lookup with Spring Session),
     * so nothing on the thread names the session, and a guess could hand one session another's state.
     */
    static final String WEBFLUX_FIX = "WebFlux binds no request to a thread, so a WebFlux handler, filter or"
            + " operator has none: call the bean from an @OnContext handler method (its body runs on the"
            + " WebSession's context), or inside context.invokeAsync(...) with the WebSession's context (a"
            + " RendererSyncContext handler parameter, or WebSessionContexts.contextOf(exchange)).";

    private static @Nullable RendererSyncContext resolve(ContextProxy proxy) {
        try {
            return proxy.target();
        } catch (RuntimeException noScopeOnThisThread) {
            return null; // this proxy's scope is not active here: try the next
        }
    }
}
