package dev.synccontext.autoconfigure;

import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.MethodParameter;
import org.springframework.core.ResolvableType;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodReturnValueHandler;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;

/**
 * Writes a controller's {@link CompletableFuture} that is already complete when the method returns as if
 * the method had returned its value, instead of through Servlet async processing. That is the common case
 * with a {@code RendererSyncContext}: {@code invokeAsync} on an idle session runs inline and returns a
 * completed future, and Spring MVC would still start async processing and dispatch the request a second
 * time through the container and the filter chain to write it, which costs about as much again as the
 * request itself (measured by {@code bench/http.sh}; figures in {@code bench/README.md}).
 *
 * <p>The value is handed to the first of the adapter's other handlers that supports it, with a return
 * type that describes the value (its class, or the future's type argument when it is null), as Spring
 * MVC does when an async result comes back. A future that is not done yet, failed, or cancelled, a
 * {@link CompletionStage} that is not a {@code CompletableFuture}, and a value no handler supports, go the
 * usual asynchronous way, unchanged.
 *
 * <p>What a controller that returns a completed future then does not see: the async dispatch itself (a
 * filter that only acts on {@code DispatcherType.ASYNC}, a {@code DeferredResultProcessingInterceptor}).
 * Switch it off with {@code synccontext.mvc.write-completed-futures=false}.
 */
final class CompletedFutureReturnValueHandler implements HandlerMethodReturnValueHandler {

    private final List<HandlerMethodReturnValueHandler> others;

    CompletedFutureReturnValueHandler(List<HandlerMethodReturnValueHandler> others) {
        this.others = List.copyOf(others);
    }

    @Override
    public boolean supportsReturnType(MethodParameter returnType) {
        return CompletionStage.class.isAssignableFrom(returnType.getParameterType());
    }

    @Override
    public void handleReturnValue(@Nullable Object returnValue, MethodParameter returnType,
            ModelAndViewContainer mavContainer, NativeWebRequest webRequest) throws Exception {
        if (returnValue instanceof CompletableFuture<?> future && future.isDone() && !future.isCompletedExceptionally()) {
            Object value = future.getNow(null);
            MethodParameter valueType = new CompletedValueParameter(returnType, value);
            for (HandlerMethodReturnValueHandler handler : others) {
                if (handler.supportsReturnType(valueType)) {
                    handler.handleReturnValue(value, valueType, mavContainer, webRequest);
                    return;
                }
            }
        }
        for (HandlerMethodReturnValueHandler handler : others) {
            if (handler.supportsReturnType(returnType)) {
                handler.handleReturnValue(returnValue, returnType, mavContainer, webRequest);
                return;
            }
        }
        throw new IllegalStateException("No return value handler for " + returnType.getParameterType().getName()
                + " besides " + getClass().getSimpleName());
    }

    /** Puts a handler in front of every {@link RequestMappingHandlerAdapter}'s own. */
    static BeanPostProcessor installer() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                if (bean instanceof RequestMappingHandlerAdapter adapter && adapter.getReturnValueHandlers() != null) {
                    List<HandlerMethodReturnValueHandler> handlers = new ArrayList<>(adapter.getReturnValueHandlers());
                    if (handlers.stream().noneMatch(CompletedFutureReturnValueHandler.class::isInstance)) {
                        handlers.add(0, new CompletedFutureReturnValueHandler(handlers));
                        adapter.setReturnValueHandlers(handlers);
                    }
                }
                return bean;
            }
        };
    }

    /**
     * The controller method's return type seen as the completed value's: its class, or the future's type
     * argument when the value is null; annotations (such as {@code @ResponseBody}) stay the method's.
     */
    private static final class CompletedValueParameter extends MethodParameter {

        private final @Nullable Object value;
        private final ResolvableType valueType;

        CompletedValueParameter(MethodParameter returnType, @Nullable Object value) {
            super(returnType);
            this.value = value;
            this.valueType = ResolvableType.forMethodParameter(returnType).as(CompletionStage.class).getGeneric(0);
        }

        private CompletedValueParameter(CompletedValueParameter original) {
            super(original);
            this.value = original.value;
            this.valueType = original.valueType;
        }

        @Override
        public Class<?> getParameterType() {
            if (value != null) {
                return value.getClass();
            }
            return ResolvableType.NONE.equals(valueType) ? Object.class : valueType.toClass();
        }

        @Override
        public Type getGenericParameterType() {
            return ResolvableType.NONE.equals(valueType) ? Object.class : valueType.getType();
        }

        @Override
        public CompletedValueParameter clone() {
            return new CompletedValueParameter(this);
        }
    }
}
