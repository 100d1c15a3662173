package dev.synccontext.spring.scope;

import dev.synccontext.spring.UnproxyableBeanException;
import dev.synccontext.spring.handler.OnContext;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.annotation.ScopedProxyMode;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Fails the startup with an {@link UnproxyableBeanException} when a {@link ContextScoped} bean's class (with a
 * class-based proxy), or the class of an {@link OnContext} bean that is a class-based proxy, has a public or
 * protected method a subclass cannot override, or is final itself. An {@code @OnContext} MVC controller that
 * nothing proxies calls its methods on itself and may stay final.
 *
 * <p>Why it must fail rather than warn: a class-based proxy is a subclass, and a final method is not
 * overridden, so a call to it runs on the proxy object itself. For a context-scoped bean that object is one
 * per application: every session's calls share its fields, and one user is served another's state without a
 * word logged. For a proxied handler the fields were never set, and each request fails. Kotlin makes every
 * method final unless it is {@code open} or the {@code kotlin-spring} (all-open) compiler plugin opens the
 * classes Spring proxies, so an {@code open class} with plain {@code fun}s has this mistake.
 *
 * <p>Runs once, after the singletons exist, over every bean definition: the scoped targets' types are
 * predicted, never created. On the same pass it fails the startup for a context-scoped bean whose declared kind
 * and key contradict each other ({@code kind = SESSION, key = "room:*"}), naming the bean and the fix, rather than
 * at the bean's first call.
 */
public final class ProxyableBeansCheck implements SmartInitializingSingleton {

    private final ConfigurableListableBeanFactory beanFactory;

    public ProxyableBeansCheck(ConfigurableListableBeanFactory beanFactory) {
        this.beanFactory = beanFactory;
    }

    @Override
    public void afterSingletonsInstantiated() {
        for (String name : beanFactory.getBeanDefinitionNames()) {
            BeanDefinition definition = beanFactory.getMergedBeanDefinition(name);
            if (definition.isAbstract()) {
                continue;
            }
            Class<?> type;
            try {
                type = beanFactory.getType(name, false);
            } catch (RuntimeException unresolvable) {
                continue; // its own failure, if any, is the bean factory's to report
            }
            if (type == null) {
                continue;
            }
            type = ClassUtils.getUserClass(type);
            if (ContextScoped.SCOPE_NAME.equals(definition.getScope())) {
                ContextScoped declared = beanFactory.findAnnotationOnBean(name, ContextScoped.class, false);
                if (declared != null) {
                    ContextKindDeclarations.check(name, declared); // at startup, not at the bean's first call
                }
                if (classProxied(name)) {
                    check(name, type, "@ContextScoped");
                }
            } else if (isClassProxy(name) && isOnContext(type)) {
                check(name, type, "@OnContext");
            }
        }
    }

    private boolean classProxied(String name) {
        ContextScoped declared = beanFactory.findAnnotationOnBean(name, ContextScoped.class, false);
        return declared == null || (declared.proxyMode() != ScopedProxyMode.INTERFACES
                && declared.proxyMode() != ScopedProxyMode.NO);
    }

    /**
     * Whether the singleton {@code name} is a class-based proxy (an aspect, method validation, WebFlux's
     * {@code @OnContext} proxy): an unproxied MVC handler runs its final methods on itself, which is fine.
     */
    private boolean isClassProxy(String name) {
        return beanFactory.containsSingleton(name) && AopUtils.isCglibProxy(beanFactory.getSingleton(name));
    }

    private static boolean isOnContext(Class<?> type) {
        if (AnnotatedElementUtils.hasAnnotation(type, OnContext.class)) {
            return true;
        }
        boolean[] found = new boolean[1];
        ReflectionUtils.doWithMethods(type, method -> found[0] = true,
                method -> !found[0] && AnnotatedElementUtils.hasAnnotation(method, OnContext.class));
        return found[0];
    }

    /** Throws if {@code type} or one of its overridable-looking methods cannot be overridden. */
    static void check(String beanName, Class<?> type, String annotation) {
        List<String> finalMethods = finalMethods(type);
        boolean finalClass = Modifier.isFinal(type.getModifiers());
        if (!finalClass && finalMethods.isEmpty()) {
            return;
        }
        StringBuilder description = new StringBuilder(annotation).append(" bean '").append(beanName).append("' (")
                .append(type.getName()).append(") ");
        if (finalClass) {
            description.append("is a final class");
        } else {
            description.append("has final methods ").append(String.join(", ", finalMethods));
        }
        description.append(", which its class-based proxy cannot override: a call to ").append(finalClass ? "it" : "them")
                .append(" would run on the proxy's own fields (one object for every session, or never initialized)"
                        + " instead of the running context's instance.");
        String action;
        if (isKotlin(type)) {
            action = "Kotlin classes and their methods are final unless declared open: apply the kotlin-spring"
                    + " compiler plugin (it opens @Component classes and all their methods; for a bean declared"
                    + " otherwise add allOpen { annotation(\"dev.synccontext.spring.scope.ContextScoped\") }), or"
                    + " declare the class and these methods open.";
        } else {
            action = "Remove 'final' from the " + (finalClass ? "class" : "methods")
                    + ", or for a @ContextScoped bean use proxyMode = ScopedProxyMode.INTERFACES with an interface.";
        }
        throw new UnproxyableBeanException(beanName, type, finalMethods, description.toString(), action);
    }

    /** The public and protected instance methods of {@code type} and its superclasses (not Object's) that are final. */
    static List<String> finalMethods(Class<?> type) {
        List<String> found = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Method method : c.getDeclaredMethods()) {
                int modifiers = method.getModifiers();
                if (Modifier.isFinal(modifiers) && !Modifier.isStatic(modifiers) && !method.isSynthetic()
                        && (Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers))) {
                    found.add(c.getSimpleName() + "." + method.getName() + "(" + parameters(method) + ")");
                }
            }
        }
        return found;
    }

    private static String parameters(Method method) {
        return java.util.Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName)
                .collect(Collectors.joining(", "));
    }

    private static boolean isKotlin(@Nullable Class<?> type) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (var annotation : c.getDeclaredAnnotations()) {
                if (annotation.annotationType().getName().equals("kotlin.Metadata")) {
                    return true;
                }
            }
        }
        return false;
    }
}
