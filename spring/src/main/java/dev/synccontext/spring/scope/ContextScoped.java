package dev.synccontext.spring.scope;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.context.annotation.Scope;
import org.springframework.context.annotation.ScopedProxyMode;
import org.springframework.core.annotation.AliasFor;

/**
 * One instance of the bean per context: per HTTP session, request, WebSocket/STOMP session, WebFlux
 * {@code WebSession} or registry key, whichever context the call belongs to. The state of a session's UI
 * lives here, with no lock: every callback of the context sees the same instance, one at a time.
 *
 * <h2>Guarantees</h2>
 * <ul>
 * <li><b>Resolved per call, through a proxy</b> (class-based by default, like {@code @SessionScope}): inside
 * a callback of a context, on any pool thread, to that context's instance; on a request thread outside any
 * callback, to the current HTTP session's (or request's, or STOMP session's) context's instance, unless
 * {@code synccontext.context-scope.strict=true}, where only callbacks resolve.</li>
 * <li><b>Created lazily</b>, on the first call that needs it, once per context.</li>
 * <li><b>Destroyed with its context</b>: when the context is released (the session ends, the WebSocket
 * closes, the request completes, the key is removed, the application stops), after the context's last
 * queued callback and on the context ({@code @PreDestroy}, {@code DisposableBean}, a destroy method).</li>
 * <li><b>Node-local</b>: the instance lives with the context on this node, never in the HTTP session, so
 * nothing of it is written to a Spring Session store.</li>
 * <li>Outside any context (no callback, no session or STOMP message on the thread), a call fails with a
 * {@link NoCurrentContextException} that says where the bean resolves.</li>
 * <li><b>WebFlux</b>: only inside a callback of the {@code WebSession}'s context (an {@code @OnContext}
 * handler's body, or {@code context.invokeAsync(...)} with the context of a {@code RendererSyncContext}
 * handler parameter). WebFlux binds no request to a thread, so a plain handler, a filter or an operator
 * has no current session; a call there fails with a {@link NoCurrentContextException} naming those two
 * fixes, rather than guess a session on an event loop that serves many.</li>
 * </ul>
 * Not a lock across nodes: with several nodes, a session's instance exists per node (see the session
 * part's notes on affinity).
 */
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Scope(ContextScoped.SCOPE_NAME)
public @interface ContextScoped {

    /** The scope's name, for {@code @Scope("synccontext")} or XML. */
    String SCOPE_NAME = "synccontext";

    /** How the bean is proxied; a class-based proxy by default, so it can be injected as its own type. */
    @AliasFor(annotation = Scope.class)
    ScopedProxyMode proxyMode() default ScopedProxyMode.TARGET_CLASS;
}
