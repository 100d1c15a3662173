package dev.synccontext.spring.mvc;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.core.MethodParameter;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.ServletWebRequest;
import org.springframework.web.method.support.HandlerMethodReturnValueHandler;
import org.springframework.web.method.support.HandlerMethodReturnValueHandlerComposite;
import org.springframework.web.method.support.ModelAndViewContainer;

/**
 * The adapter's return value handlers, plus one step in front: the async result of a queued
 * {@code @OnContext} body ({@link QueuedOutcome}) is handed back to the invocation it came from, which writes
 * the body's value as the inline path would have (see {@link OnContextInvocableHandlerMethod#finish}).
 *
 * <p>Why a wrapper: on the async dispatch Spring MVC replays a concurrent result through a handler method of
 * its own that describes the value by the declared return type's <em>generic argument</em> (right for a
 * {@code CompletableFuture<T>} method, wrong for a {@code List<T>} one). A {@code QueuedOutcome} is described
 * as itself, reaches this step, and the invocation writes the value with the method's own return type.
 * Everything else goes to the adapter's handlers unchanged, asynchronous values included (a subclass of the
 * composite rather than a nested one, which the composite would skip for them).
 */
final class FinishingReturnValueHandlers extends HandlerMethodReturnValueHandlerComposite {

    private final HandlerMethodReturnValueHandlerComposite handlers;

    FinishingReturnValueHandlers(HandlerMethodReturnValueHandlerComposite handlers) {
        this.handlers = handlers;
    }

    boolean wraps(HandlerMethodReturnValueHandlerComposite candidate) {
        return handlers == candidate;
    }

    @Override
    public List<HandlerMethodReturnValueHandler> getHandlers() {
        return handlers.getHandlers();
    }

    @Override
    public boolean supportsReturnType(MethodParameter returnType) {
        return returnType.getParameterType() == QueuedOutcome.class || handlers.supportsReturnType(returnType);
    }

    @Override
    public void handleReturnValue(@Nullable Object returnValue, MethodParameter returnType,
            ModelAndViewContainer mavContainer, NativeWebRequest webRequest) throws Exception {
        if (returnValue instanceof QueuedOutcome outcome) {
            outcome.invocation().finish(outcome.value(), mavContainer, (ServletWebRequest) webRequest, handlers);
            return;
        }
        handlers.handleReturnValue(returnValue, returnType, mavContainer, webRequest);
    }

    /**
     * What a queued body returned, as the async result: the invocation it belongs to and its value.
     *
     * @param value the body's return value (null for {@code void})
     */
    record QueuedOutcome(OnContextInvocableHandlerMethod invocation, @Nullable Object value) {
    }
}
