package dev.synccontext.spring.mvc;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.handler.AnswerBarrier;
import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.spring.handler.OnContextDeclarations;
import dev.synccontext.registry.ContextProxy;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.method.support.HandlerMethodReturnValueHandlerComposite;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;
import org.springframework.web.servlet.mvc.method.annotation.ServletInvocableHandlerMethod;

/**
 * The {@link RequestMappingHandlerAdapter} that runs {@link OnContext @OnContext} handler methods on their
 * context; every other method is invoked exactly as by its superclass.
 *
 * <h2>Guarantees</h2>
 * <ul>
 * <li><b>Binding and validation stay on the request thread</b>: arguments are resolved, bound and validated
 * by the superclass's machinery before the body is handed to the context; a binding or validation failure
 * answers as it does without the annotation (the body never reaches the context).</li>
 * <li><b>The body runs on the request's context</b>: the one the injected {@code rendererSyncContext}
 * ({@code ScopedSyncContext}) resolves to on the request thread (the HTTP session's, created with the
 * session if there is none; the request's with {@code synccontext.scope=request}). Inside the body
 * {@code RendererSyncContext.current()} is that context and {@code @ContextScoped} beans are its own (also
 * with {@code synccontext.context-scope.strict=true}: the body is a callback).</li>
 * <li><b>Idle: inline, no async dispatch.</b> The body runs on the request thread and its value is written
 * in the same dispatch, by the same code path as without the annotation.</li>
 * <li><b>Busy: queued, answered through Servlet async processing</b> within the async request timeout
 * ({@code spring.mvc.async.request-timeout}). Spring's request and locale holders are bound around the
 * queued body, so code that reads the current request still finds it. On timeout the request gets Spring's
 * own answer (503, {@code AsyncRequestTimeoutException}) and a body that has not started yet never runs; one
 * that had started finishes and its value is dropped (a failure is logged at WARN).</li>
 * <li><b>Return values and exceptions as without the annotation</b>, inline or queued: values go to the same
 * return value handlers with the same return type (objects, {@code ResponseEntity}, {@code void}, view
 * names, {@code SseEmitter}, a {@code CompletableFuture} the body returns, ...), {@code @ResponseStatus}
 * applies, and what the body throws reaches {@code @ExceptionHandler} and {@code ProblemDetail} handling as
 * the exception itself.</li>
 * <li><b>A refused body answers 503</b>: when the context is closed (the session ended meanwhile) or full,
 * the request fails with {@link dev.synccontext.spring.handler.ContextUnavailableException}; nothing
 * waits for a context that will never run it.</li>
 * </ul>
 * Whether a method is annotated (on the method or its controller class, meta-annotations included) is decided
 * once per handler method; an unannotated method costs one map lookup per request.
 *
 * <h2>Why an adapter, and how it composes</h2>
 * Spring MVC invokes a handler through {@link ServletInvocableHandlerMethod}, which the adapter creates per
 * request ({@link #createInvocableHandlerMethod}); that is the only seam that sees the bound arguments
 * <em>and</em> may answer later than the method returns (an AOP proxy of the controller would have to return
 * the declared type at once, so a busy context could not answer asynchronously). Spring Boot takes the adapter
 * from a unique {@code WebMvcRegistrations} bean: the starter declares one only when the application has none
 * ({@code synccontext.mvc.on-context=false} removes it). An application with its own
 * {@code WebMvcRegistrations} (or {@code @EnableWebMvc}) returns this class, or a subclass of it, from its
 * {@code getRequestMappingHandlerAdapter()}; if it does not and a handler method carries {@code @OnContext},
 * the application fails at startup with a message that says so, rather than running the method off its
 * context.
 *
 * <p><b>Kotlin {@code suspend} handler methods</b> run as a coroutine on the context's dispatcher
 * ({@code synccontext-kotlin}'s {@code asCoroutineDispatcher()}): every part between two suspensions is a
 * callback of the request's context, posted (never inline, so the request is always answered
 * asynchronously), and the value is handed on off the context (see
 * {@link dev.synccontext.spring.handler.coroutines.SuspendingBodies}). Spring's request holders are
 * not bound inside the coroutine; take what the body needs as parameters. Without the libraries this needs,
 * the application fails at startup naming them ({@code OnContextMethodsCheck}). The one place a plain body is
 * invoked is {@code OnContextInvocableHandlerMethod#invokeBody}.
 */
public class OnContextHandlerAdapter extends RequestMappingHandlerAdapter {

    /** The injected proxy's bean name (the session part declares it). */
    static final String CONTEXT_BEAN = "rendererSyncContext";

    private final Map<HandlerMethod, Boolean> onContext = new ConcurrentHashMap<>();
    private volatile @Nullable RendererSyncContext injected;
    private volatile @Nullable FinishingReturnValueHandlers finishing;
    /** The application's {@link AnswerBarrier} beans in order, looked up at the first body. */
    private volatile AnswerBarrier @Nullable [] barriers;

    @Override
    protected ServletInvocableHandlerMethod createInvocableHandlerMethod(HandlerMethod handlerMethod) {
        if (onContext.computeIfAbsent(handlerMethod, OnContextHandlerAdapter::isOnContext)) {
            return new OnContextInvocableHandlerMethod(handlerMethod, this);
        }
        return super.createInvocableHandlerMethod(handlerMethod);
    }

    /** Whether {@code method} runs on its context: its own {@link OnContext}, else its controller class's. */
    static boolean isOnContext(HandlerMethod method) {
        return OnContextDeclarations.runsOnContext(method.getMethod(), method.getBeanType());
    }

    /**
     * The context the current request's annotated handler runs on, resolved on the request thread.
     *
     * @throws IllegalStateException naming the handler and the fix when the request has none
     */
    RendererSyncContext currentContext(HandlerMethod handler) {
        RendererSyncContext bean = injected();
        if (!(bean instanceof ContextProxy proxy)) {
            return bean; // an application's own RendererSyncContext bean: one context for every request
        }
        try {
            return proxy.target();
        } catch (RuntimeException noContext) {
            throw new IllegalStateException("@OnContext handler " + handler.getShortLogMessage() + " has no context"
                    + " on this request: " + noContext.getMessage() + ". HTTP handlers run on the HTTP session's"
                    + " context (synccontext.scope=session, the default) or the request's (synccontext.scope=request);"
                    + " with synccontext.scope=websocket an HTTP request has none.", noContext);
        }
    }

    private RendererSyncContext injected() {
        RendererSyncContext bean = injected;
        if (bean == null) {
            BeanFactory factory = getBeanFactory();
            if (factory == null || !factory.containsBean(CONTEXT_BEAN)) {
                throw new IllegalStateException("@OnContext handlers need the '" + CONTEXT_BEAN + "' bean (the"
                        + " synccontext starter's injected RendererSyncContext, declared by its session part in a"
                        + " servlet web application); " + (factory == null ? "this adapter has no bean factory"
                        : "the application context has none") + ".");
            }
            bean = factory.getBean(CONTEXT_BEAN, RendererSyncContext.class);
            injected = bean;
        }
        return bean;
    }

    /**
     * Runs every {@link AnswerBarrier} bean, in order, on {@code context} after a body returned; the first that
     * throws ends the chain and its exception is the answer.
     */
    void beforeAnswer(RendererSyncContext context, HandlerMethod handler) throws Exception {
        AnswerBarrier[] all = barriers;
        if (all == null) {
            BeanFactory factory = getBeanFactory();
            all = factory == null ? new AnswerBarrier[0]
                    : factory.getBeanProvider(AnswerBarrier.class).orderedStream().toArray(AnswerBarrier[]::new);
            barriers = all;
        }
        for (AnswerBarrier barrier : all) {
            barrier.beforeAnswer(context, handler.getShortLogMessage());
        }
    }

    /**
     * The adapter's return value handlers with the step that writes a queued body's value in front; one
     * instance per composite (the adapter's handlers are replaced whole, never changed in place).
     */
    FinishingReturnValueHandlers finishing(HandlerMethodReturnValueHandlerComposite handlers) {
        FinishingReturnValueHandlers kept = finishing;
        if (kept == null || !kept.wraps(handlers)) {
            kept = new FinishingReturnValueHandlers(handlers);
            finishing = kept;
        }
        return kept;
    }
}
