package dev.synccontext.spring.handler;

import java.lang.reflect.Method;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;

/**
 * The one reading of {@link OnContext} every stack uses (MVC, WebFlux, STOMP): a method's own annotation wins
 * over its class's, so {@code @OnContext(false)} on a method opts it out of a class-level {@code @OnContext}.
 */
public final class OnContextDeclarations {

    private OnContextDeclarations() {
    }

    /**
     * Whether {@code method} of a bean of {@code beanType} runs on its context: its own {@link OnContext} (meta-
     * annotations and overridden declarations included) if it has one, otherwise its class's, otherwise not.
     */
    public static boolean runsOnContext(Method method, Class<?> beanType) {
        OnContext own = AnnotatedElementUtils.findMergedAnnotation(method, OnContext.class);
        if (own != null) {
            return own.value();
        }
        OnContext declared = AnnotatedElementUtils.findMergedAnnotation(ClassUtils.getUserClass(beanType), OnContext.class);
        return declared != null && declared.value();
    }
}
