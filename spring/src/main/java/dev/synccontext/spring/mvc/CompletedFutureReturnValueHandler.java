package dev.synccontext.spring.mvc;

import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
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
 * <p>Which handler writes a method's value, and the parameter that describes the value, are worked out on
 * the method's first completed future and kept per controller method (for the value class last seen), so
 * a request pays one map lookup for them instead of resolving the future's generic type and asking every
 * handler again: that resolution alone cost about 3 % of a request's CPU in {@code bench/http.sh}'s app
 * (async-profiler; {@code bench/README.md}). Handlers decide from the return type and its annotations,
 * which is what the key covers. Thread-safe: a kept selection is immutable and replaced whole, and two
 * requests that make one at once both get a correct one.
 *
 * <p>What a controller that returns a completed future then does not see: the async dispatch itself (a
 * filter that only acts on {@code DispatcherType.ASYNC}, a {@code DeferredResultProcessingInterceptor}).
 * Switch it off with {@code synccontext.mvc.write-completed-futures=false}.
 */
public final class CompletedFutureReturnValueHandler implements HandlerMethodReturnValueHandler {

    private final List<HandlerMethodReturnValueHandler> others;
    /** Per controller method: how its last completed value was written. At most one entry per method. */
    private final Map<Method, Selection> selections = new ConcurrentHashMap<>();

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
            Selection selection = select(returnType, value == null ? null : value.getClass());
            if (selection.handler() != null) {
                selection.handler().handleReturnValue(value, selection.valueType(), mavContainer, webRequest);
                return;
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

    /** The handler for a completed value of {@code valueClass} ({@code null}: a null value), kept per method. */
    private Selection select(MethodParameter returnType, @Nullable Class<?> valueClass) {
        Method method = returnType.getMethod();
        Class<?> containingClass = returnType.getContainingClass(); // the controller's class: may inherit the method
        Selection kept = method == null ? null : selections.get(method);
        if (kept != null && kept.valueClass() == valueClass && kept.containingClass() == containingClass) {
            return kept;
        }
        CompletedValueParameter valueType = new CompletedValueParameter(returnType, valueClass);
        HandlerMethodReturnValueHandler chosen = null;
        for (HandlerMethodReturnValueHandler handler : others) {
            if (handler.supportsReturnType(valueType)) {
                chosen = handler;
                break;
            }
        }
        Selection made = new Selection(containingClass, valueClass, valueType, chosen);
        if (method != null) {
            selections.put(method, made); // replaces the method's previous entry: the map stays one per method
        }
        return made;
    }

    /**
     * How a method's completed value of {@code valueClass}, returned by a controller of
     * {@code containingClass}, is written: by {@code handler} (null if no handler supports it: the future then
     * goes the asynchronous way), described by {@code valueType}.
     */
    private record Selection(Class<?> containingClass, @Nullable Class<?> valueClass, CompletedValueParameter valueType,
            @Nullable HandlerMethodReturnValueHandler handler) {
    }

    /** Puts a handler in front of every {@link RequestMappingHandlerAdapter}'s own. */
    public static BeanPostProcessor installer() {
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
     * The controller method's return type seen as the completed value's: the value's class, or the future's
     * type argument when the value is null; annotations (such as {@code @ResponseBody}) stay the method's.
     * Immutable apart from {@link MethodParameter}'s own lazily filled caches, so one instance serves every
     * request of its method, as Spring MVC shares a handler method's parameters.
     */
    private static final class CompletedValueParameter extends MethodParameter {

        private final @Nullable Class<?> valueClass;
        /** The future's type argument ({@code Object} if it has none): its class and its full type. */
        private final Class<?> declaredClass;
        private final Type declaredType;

        CompletedValueParameter(MethodParameter returnType, @Nullable Class<?> valueClass) {
            super(returnType);
            this.valueClass = valueClass;
            ResolvableType declared = ResolvableType.forMethodParameter(returnType).as(CompletionStage.class).getGeneric(0);
            boolean none = ResolvableType.NONE.equals(declared);
            this.declaredClass = none ? Object.class : declared.toClass();
            this.declaredType = none ? Object.class : declared.getType();
        }

        private CompletedValueParameter(CompletedValueParameter original) {
            super(original);
            this.valueClass = original.valueClass;
            this.declaredClass = original.declaredClass;
            this.declaredType = original.declaredType;
        }

        @Override
        public Class<?> getParameterType() {
            return valueClass != null ? valueClass : declaredClass;
        }

        @Override
        public Type getGenericParameterType() {
            return declaredType;
        }

        @Override
        public CompletedValueParameter clone() {
            return new CompletedValueParameter(this);
        }
    }
}
