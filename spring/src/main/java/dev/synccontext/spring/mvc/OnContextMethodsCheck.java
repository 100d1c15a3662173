package dev.synccontext.spring.mvc;

import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.spring.handler.coroutines.SuspendingBodies;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * Fails the startup, naming the methods and the fix, rather than let an {@link OnContext @OnContext} handler
 * method run off its context: when no {@link RequestMappingHandlerAdapter} of the application is an
 * {@link OnContextHandlerAdapter} (the application's own {@code WebMvcRegistrations} or {@code @EnableWebMvc}
 * supplies the adapter, or {@code synccontext.mvc.on-context=false}), and for Kotlin {@code suspend} methods
 * when a library their coroutine on the context needs is missing ({@code synccontext-kotlin},
 * {@code kotlinx-coroutines-reactor}, {@code kotlin-reflect}).
 */
public final class OnContextMethodsCheck implements SmartInitializingSingleton {

    private final ListableBeanFactory beans;

    public OnContextMethodsCheck(ListableBeanFactory beans) {
        this.beans = beans;
    }

    /** The application's class loader, where the libraries a suspend handler needs must be. */
    private @Nullable ClassLoader classLoader() {
        return beans instanceof ConfigurableBeanFactory factory ? factory.getBeanClassLoader() : getClass().getClassLoader();
    }

    @Override
    public void afterSingletonsInstantiated() {
        List<String> annotated = new ArrayList<>();
        for (RequestMappingHandlerMapping mapping : beans.getBeansOfType(RequestMappingHandlerMapping.class, false, false).values()) {
            for (HandlerMethod method : mapping.getHandlerMethods().values()) {
                if (!OnContextHandlerAdapter.isOnContext(method)) {
                    continue;
                }
                String missing;
                if (SuspendingBodies.isSuspending(method.getMethod())
                        && (missing = SuspendingBodies.missing(classLoader())) != null) {
                    throw new IllegalStateException("@OnContext handler " + method + " is a Kotlin suspend function,"
                            + " whose coroutine runs on its context through synccontext-kotlin's dispatcher: " + missing
                            + " (Spring itself needs kotlinx-coroutines-reactor and kotlin-reflect for suspend handlers).");
                }
                annotated.add(method.toString());
            }
        }
        if (annotated.isEmpty()) {
            return;
        }
        boolean carriedOut = beans.getBeansOfType(RequestMappingHandlerAdapter.class, false, false).values().stream()
                .anyMatch(OnContextHandlerAdapter.class::isInstance);
        if (!carriedOut) {
            throw new IllegalStateException("@OnContext handler methods " + annotated + " would run off their context:"
                    + " the application's RequestMappingHandlerAdapter is not an OnContextHandlerAdapter (the"
                    + " starter's WebMvcRegistrations backs off when the application has its own, or with"
                    + " synccontext.mvc.on-context=false, and Boot ignores every WebMvcRegistrations under @EnableWebMvc)."
                    + " Return new OnContextHandlerAdapter() (or a subclass) from your WebMvcRegistrations'"
                    + " getRequestMappingHandlerAdapter() or your WebMvcConfigurationSupport's"
                    + " createRequestMappingHandlerAdapter().");
        }
    }
}
