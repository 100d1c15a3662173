package dev.synccontext.spring.scope;

import java.lang.reflect.Proxy;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.generate.GenerationContext;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.RegisteredBean;

/**
 * Makes the proxy class of each {@link ContextScoped} bean at build time, so that an AOT-processed application
 * defines none at run time and a native image has the class it cannot define.
 *
 * <p>The class is made by the same code the run time uses ({@link ContextScopedProxyFactoryBean#proxyClass}),
 * from the proxy's bean definition as it stands after the scope's registrar has made it a
 * {@link ContextScopedProxyFactoryBean}. Spring writes every CGLIB class defined during AOT processing beside
 * the generated sources (with reflection hints for it); the run time loads it by its name. Hints added here:
 * allocation without a constructor (the proxy is made with Objenesis), the protected methods the dispatching
 * subclass calls by reflection, and the interfaces of an interface-based (JDK) proxy.
 *
 * <p>Registered in {@code META-INF/spring/aot.factories}; Spring's {@code ScopedProxyBeanRegistrationAotProcessor}
 * does not see these beans, whose class is no longer Spring's {@code ScopedProxyFactoryBean}.
 */
final class ContextScopedAotProcessor implements BeanRegistrationAotProcessor {

    @Override
    public @Nullable BeanRegistrationAotContribution processAheadOfTime(RegisteredBean registeredBean) {
        if (registeredBean.getBeanClass() != ContextScopedProxyFactoryBean.class) {
            return null;
        }
        // The proxy's settings as the bean factory will apply them (targetBeanName, proxyTargetClass).
        ContextScopedProxyFactoryBean config = new ContextScopedProxyFactoryBean();
        BeanWrapperImpl wrapper = new BeanWrapperImpl(config);
        wrapper.setPropertyValues(registeredBean.getMergedBeanDefinition().getPropertyValues(), true);
        Object targetName = registeredBean.getMergedBeanDefinition().getPropertyValues().get("targetBeanName");
        ConfigurableListableBeanFactory factory = registeredBean.getBeanFactory();
        Class<?> type = targetName instanceof String name ? factory.getType(name) : null;
        if (type == null) {
            return null; // the run time reports it, as without AOT
        }
        ClassLoader loader = factory.getBeanClassLoader();
        return (generationContext, code) -> contribute(generationContext.getRuntimeHints(),
                ContextScopedProxyFactoryBean.proxyClass(config, type, loader), type,
                ContextScopedProxyFactoryBean.dispatches(config, type));
    }

    private static void contribute(RuntimeHints hints, Class<?> proxyClass, Class<?> type, boolean dispatching) {
        if (Proxy.isProxyClass(proxyClass)) {
            hints.proxies().registerJdkProxy(proxyClass.getInterfaces());
            return;
        }
        hints.reflection().registerType(proxyClass, MemberCategory.UNSAFE_ALLOCATED,
                MemberCategory.INVOKE_DECLARED_CONSTRUCTORS);
        if (dispatching) {
            DispatchingSubclass.forEachReflected(type,
                    method -> hints.reflection().registerMethod(method, ExecutableMode.INVOKE));
        }
    }
}
