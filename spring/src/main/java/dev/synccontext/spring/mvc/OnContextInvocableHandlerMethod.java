package dev.synccontext.spring.mvc;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.handler.ContextUnavailableException;
import dev.synccontext.spring.handler.coroutines.SuspendingBodies;
import dev.synccontext.spring.mvc.FinishingReturnValueHandlers.QueuedOutcome;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.lang.reflect.Method;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.context.i18n.LocaleContext;
import org.springframework.context.i18n.LocaleContextHolder;
import org.springframework.http.HttpStatusCode;
import org.springframework.util.StringUtils;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.context.request.async.WebAsyncUtils;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.method.support.HandlerMethodReturnValueHandlerComposite;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.View;
import org.springframework.web.servlet.mvc.method.annotation.ServletInvocableHandlerMethod;

/**
 * One request's invocation of an {@code @OnContext} handler method (see {@link OnContextHandlerAdapter} for
 * the guarantees). The superclass resolves, binds and validates the arguments on the request thread and then
 * calls {@link #doInvoke}, which hands the body to the context:
 * <ul>
 * <li>done when {@code invokeAsync} returns (it ran inline, or already finished on the executor): its value is
 * returned, or its exception thrown, to the superclass, which handles it exactly as without the annotation;</li>
 * <li>queued: async processing starts with a {@link DeferredResult} (the async request timeout applies), the
 * superclass is told the request is handled for now, and when the body has run its value comes back on the
 * async dispatch as a {@link QueuedOutcome} that {@link #finish} writes as the superclass would have, or its
 * exception is the async result, which Spring MVC rethrows to the exception resolvers.</li>
 * </ul>
 * A Kotlin {@code suspend} method is started instead as a coroutine on the context's dispatcher
 * ({@link SuspendingBodies}); Spring MVC handles the publisher it returns as for any suspend handler.
 * Not thread-safe and not shared: the adapter makes one per request, as Spring MVC does.
 */
final class OnContextInvocableHandlerMethod extends ServletInvocableHandlerMethod {

    private static final Log LOG = LogFactory.getLog(OnContextInvocableHandlerMethod.class);

    private final OnContextHandlerAdapter adapter;
    private @Nullable ServletWebRequest webRequest;
    private @Nullable ModelAndViewContainer mavContainer;
    /** The body was queued: the status of {@code @ResponseStatus} is applied by {@link #finish}, not now. */
    private boolean queued;
    /** An argument resolver (a response parameter, say) had marked the request handled before the body ran. */
    private boolean handledBeforeBody;
    /** The context a Kotlin {@code suspend} body's coroutine runs on, resolved on the request thread. */
    private @Nullable RendererSyncContext suspendingOn;

    OnContextInvocableHandlerMethod(HandlerMethod handlerMethod, OnContextHandlerAdapter adapter) {
        super(handlerMethod);
        this.adapter = adapter;
    }

    @Override
    public void setHandlerMethodReturnValueHandlers(HandlerMethodReturnValueHandlerComposite returnValueHandlers) {
        super.setHandlerMethodReturnValueHandlers(adapter.finishing(returnValueHandlers));
    }

    @Override
    public void invokeAndHandle(ServletWebRequest webRequest, ModelAndViewContainer mavContainer,
            @Nullable Object... providedArgs) throws Exception {
        this.webRequest = webRequest;
        this.mavContainer = mavContainer;
        super.invokeAndHandle(webRequest, mavContainer, providedArgs);
    }

    @Override
    protected @Nullable Object doInvoke(@Nullable Object... args) throws Exception {
        ServletWebRequest request = webRequest;
        ModelAndViewContainer mav = mavContainer;
        if (request == null || mav == null) {
            throw new IllegalStateException("@OnContext handler " + getShortLogMessage() + " was invoked without"
                    + " invokeAndHandle; OnContextHandlerAdapter is the only caller it supports");
        }
        RendererSyncContext context = adapter.currentContext(this);
        if (SuspendingBodies.isSuspending(getMethod())) {
            // A coroutine on the context's dispatcher: every part of it runs there, each posted, and the publisher
            // Spring MVC gets answers asynchronously (invokeSuspendingFunction below starts it).
            suspendingOn = context;
            return super.doInvoke(args);
        }
        Body body = new Body(this, context, args, request, LocaleContextHolder.getLocaleContext());
        CompletableFuture<@Nullable Object> future = context.invokeAsync(body);
        if (future.isDone()) {
            return body.outcome(future, context); // inline: the superclass writes it in this dispatch
        }
        handledBeforeBody = mav.isRequestHandled();
        queued = true;
        answerLater(future, body, context, request, mav);
        mav.setRequestHandled(true); // the superclass returns at once; the async dispatch writes the value
        return null;
    }

    /**
     * The one place a plain handler method itself is invoked (on the context, inline or queued). A Kotlin
     * {@code suspend} method is started by {@link #invokeSuspendingFunction} instead.
     */
    @Nullable Object invokeBody(@Nullable Object[] args) throws Exception {
        return super.doInvoke(args);
    }

    /**
     * Starts a Kotlin {@code suspend} handler as Spring MVC does, as a publisher of its value, but with the
     * context's coroutine dispatcher in place of Spring's unconfined one (see {@link SuspendingBodies}).
     */
    @Override
    protected Object invokeSuspendingFunction(Method method, Object target, @Nullable Object[] args) {
        RendererSyncContext context = suspendingOn;
        if (context == null) {
            throw new IllegalStateException("@OnContext handler " + getShortLogMessage() + " was started as a suspend"
                    + " function without its context");
        }
        return SuspendingBodies.invoke(context, method, target, args, getShortLogMessage(),
                (on, handler) -> adapter.beforeAnswer(on, this));
    }

    private void answerLater(CompletableFuture<@Nullable Object> future, Body body, RendererSyncContext context,
            ServletWebRequest request, ModelAndViewContainer mav) throws Exception {
        DeferredResult<Object> deferred = new DeferredResult<>(); // the adapter's async request timeout
        Runnable abandon = () -> {
            body.abandoned = true;
            future.cancel(false); // a body that has not started never runs; one that has finishes unanswered
        };
        deferred.onTimeout(abandon);
        deferred.onError(error -> abandon.run());
        try {
            WebAsyncUtils.getAsyncManager(request.getRequest()).startDeferredResultProcessing(deferred, mav);
        } catch (Exception | Error cannotGoAsync) {
            future.cancel(false);
            throw cannotGoAsync;
        }
        Runnable answer = () -> {
            if (body.abandoned) {
                body.reportIfFailedUnanswered(context);
                return;
            }
            try {
                deferred.setResult(new QueuedOutcome(this, body.outcome(future, context)));
            } catch (Exception | Error failed) {
                deferred.setErrorResult(failed); // rethrown by Spring MVC on the async dispatch, as if thrown here
            }
        };
        future.whenComplete((ignoredValue, ignoredFailure) -> answerOffContexts(answer, request.getRequest()));
    }

    /**
     * Runs {@code answer} (which sets the deferred result) on a container thread when the body's future
     * completed inside a callback, else at once. A queued body's future completes on the drain, inside the
     * context's callback frame: the context is still held there, {@code RendererSyncContext.current()} is still
     * it, and the next queued callback waits. Setting the result there would run the application's
     * {@code DeferredResultProcessingInterceptor}s as if on the context (a nested {@code invokeAsync} of
     * theirs would jump the queue), start the async dispatch while the context is held, and make the next
     * body wait for all of it. A future cancelled by a timeout or by {@code closeNow()} completes on that
     * thread, outside the context: it answers at once.
     */
    private static void answerOffContexts(Runnable answer, HttpServletRequest request) {
        if (RendererSyncContext.current().isEmpty()) {
            answer.run();
            return;
        }
        try {
            request.getAsyncContext().start(answer); // the container's threads, where the async dispatch runs too
        } catch (IllegalStateException asyncAlreadyOver) {
            answer.run(); // timed out or failed meanwhile: the deferred result ignores the value, nothing waits
        }
    }

    /**
     * Writes a queued body's value on the async dispatch as {@code ServletInvocableHandlerMethod#invokeAndHandle}
     * writes a value after the method returned: {@code @ResponseStatus}, a null value of a handled or
     * not-modified request, a status reason, then the return value handlers with the method's own return type.
     */
    void finish(@Nullable Object value, ModelAndViewContainer mav, ServletWebRequest current,
            HandlerMethodReturnValueHandlerComposite handlers) throws Exception {
        HttpStatusCode status = super.getResponseStatus();
        String reason = super.getResponseStatusReason();
        if (status != null) {
            HttpServletResponse response = current.getResponse();
            if (response != null) {
                if (StringUtils.hasText(reason)) {
                    response.sendError(status.value(), reason);
                } else {
                    response.setStatus(status.value());
                }
            }
            current.getRequest().setAttribute(View.RESPONSE_STATUS_ATTRIBUTE, status); // for RedirectView
        }
        ServletWebRequest first = webRequest; // the body's WebRequest argument, if any, was this one
        if (value == null) {
            if ((first != null && first.isNotModified()) || status != null || handledBeforeBody) {
                mav.setRequestHandled(true);
                return;
            }
        } else if (StringUtils.hasText(reason)) {
            mav.setRequestHandled(true);
            return;
        }
        mav.setRequestHandled(false);
        handlers.handleReturnValue(value, getReturnValueType(value), mav, current);
    }

    @Override
    protected @Nullable HttpStatusCode getResponseStatus() {
        return queued ? null : super.getResponseStatus();
    }

    @Override
    protected @Nullable String getResponseStatusReason() {
        return queued ? null : super.getResponseStatusReason();
    }

    /**
     * The body as a callback of the context, and what became of it. Written by the thread that runs it, read
     * after its future completed (the completion orders the two).
     */
    private static final class Body implements Callable<@Nullable Object> {

        private final OnContextInvocableHandlerMethod invocation;
        private final RendererSyncContext context;
        private final @Nullable Object[] args;
        private final Thread requestThread = Thread.currentThread();
        private final HttpServletRequest request;
        private final @Nullable HttpServletResponse response;
        private final @Nullable LocaleContext locale;
        private boolean started;
        private @Nullable Object value;
        private @Nullable Throwable failure;
        /** The request timed out or failed before the body finished: nobody waits for its value any more. */
        volatile boolean abandoned;

        Body(OnContextInvocableHandlerMethod invocation, RendererSyncContext context, @Nullable Object[] args,
                ServletWebRequest request, @Nullable LocaleContext locale) {
            this.invocation = invocation;
            this.context = context;
            this.args = args;
            this.request = request.getRequest();
            this.response = request.getResponse();
            this.locale = locale;
        }

        @Override
        public @Nullable Object call() throws Exception {
            started = true;
            if (Thread.currentThread() == requestThread) {
                return run(); // inline (or nested): the request's holders are bound already
            }
            // Queued: as Spring MVC does for a Callable, bind fresh request attributes (the request thread's are
            // completed when its dispatch ends) and the locale, and restore what the pool thread had.
            RequestAttributes previousAttributes = RequestContextHolder.getRequestAttributes();
            LocaleContext previousLocale = LocaleContextHolder.getLocaleContext();
            RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(request, response));
            LocaleContextHolder.setLocaleContext(locale);
            try {
                return run();
            } finally {
                RequestContextHolder.setRequestAttributes(previousAttributes);
                LocaleContextHolder.setLocaleContext(previousLocale);
            }
        }

        private @Nullable Object run() throws Exception {
            try {
                value = invocation.invokeBody(args);
                invocation.adapter.beforeAnswer(context, invocation); // still on the context: nothing shown yet
                return value;
            } catch (Exception | Error thrown) {
                failure = thrown;
                throw thrown;
            }
        }

        /**
         * The body's value, or what it threw (rethrown as is), or {@link ContextUnavailableException} when
         * the context refused it (closed, full, force-closed before it started).
         */
        @Nullable Object outcome(CompletableFuture<@Nullable Object> future, RendererSyncContext context) throws Exception {
            Throwable thrown = failure;
            if (!started) {
                throw new ContextUnavailableException(context.name(), invocation.getShortLogMessage(), causeOf(future));
            }
            if (thrown == null && future.isCompletedExceptionally()) {
                thrown = causeOf(future); // a failure around the body (a callback decorator, say)
            }
            if (thrown instanceof Exception exception) {
                throw exception;
            }
            if (thrown instanceof Error error) {
                throw error;
            }
            if (thrown != null) {
                throw new IllegalStateException("@OnContext handler " + invocation.getShortLogMessage() + " failed", thrown);
            }
            return value;
        }

        void reportIfFailedUnanswered(RendererSyncContext context) {
            Throwable thrown = failure;
            if (thrown != null) {
                LOG.warn("@OnContext handler " + invocation.getShortLogMessage() + " failed on context '" + context.name()
                        + "' after its request had timed out or failed; the client got that answer instead", thrown);
            }
        }

        private static @Nullable Throwable causeOf(CompletableFuture<?> future) {
            try {
                future.getNow(null);
                return null;
            } catch (CompletionException e) {
                return e.getCause();
            } catch (CancellationException e) {
                return e;
            }
        }
    }
}
