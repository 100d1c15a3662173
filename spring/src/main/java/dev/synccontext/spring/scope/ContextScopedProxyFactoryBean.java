package dev.synccontext.spring.scope;

import java.lang.reflect.Modifier;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.TargetSource;
import org.springframework.aop.framework.AopInfrastructureBean;
import org.springframework.aop.framework.ProxyConfig;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.aop.target.EmptyTargetSource;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.FactoryBean;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * The proxy of a {@link ContextScoped} bean, in place of Spring's {@code ScopedProxyFactoryBean}: the same
 * class- or interface-based proxy, but it asks the scope directly for the running context's instance and
 * carries no advice.
 *
 * <p>A class-based proxy is a CGLIB subclass whose every method loads the instance through a
 * {@code Dispatcher} and calls the same method on it directly: no argument array, no boxing, no
 * {@code MethodProxy} and no target-source release per call, which Spring's AOP proxy pays even without
 * advice. {@code equals} and {@code hashCode} are the proxy's identity (one proxy stands for every
 * context's instance), {@code toString} is the instance's. An interface-based proxy (or a class that cannot
 * be subclassed) is an AOP proxy with a target source that asks the scope.
 *
 * <p>Measured per call inside a callback ({@code ContextScopedBeanBenchmark} in bench/jmh; figures in
 * docs/2026-12-02-bench-figures.md): Spring's {@code ScopedProxyFactoryBean} 124 ns and 64 B (a {@code getBean} and an
 * introduction interceptor on every call), the AOP proxy with this target source 39 ns and 0 B, the
 * dispatcher subclass below that, against 12 ns through the context proxy. What it leaves out: the
 * {@code ScopedObject} introduction ({@code removeFromScope()} on the proxy).
 */
public final class ContextScopedProxyFactoryBean extends ProxyConfig
        implements FactoryBean<Object>, BeanFactoryAware, AopInfrastructureBean {

    private static final long serialVersionUID = 1L;

    private @Nullable String targetBeanName;
    private transient @Nullable Object proxy;
    private transient @Nullable Class<?> targetType;

    ContextScopedProxyFactoryBean() {
        setProxyTargetClass(true);
    }

    public void setTargetBeanName(String targetBeanName) {
        this.targetBeanName = targetBeanName;
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) {
        if (!(beanFactory instanceof ConfigurableBeanFactory factory)
                || !(factory.getRegisteredScope(ContextScoped.SCOPE_NAME) instanceof ContextBeanScope scope)) {
            throw new IllegalStateException("A @ContextScoped bean needs the '" + ContextScoped.SCOPE_NAME
                    + "' scope of synccontext's auto-configuration in this bean factory");
        }
        String name = targetBeanName;
        if (name == null) {
            throw new IllegalStateException("Property 'targetBeanName' is required");
        }
        Class<?> type = factory.getType(name);
        if (type == null) {
            throw new IllegalStateException("Cannot create the context-scoped proxy for bean '" + name
                    + "': its type cannot be determined yet");
        }
        targetType = type;
        ContextTarget target = new ContextTarget(scope, factory, name, type);
        ClassLoader loader = factory.getBeanClassLoader();
        proxy = dispatches(this, type) ? DispatchingSubclass.create(type, target, loader)
                : aopProxy(this, type, target, loader).getProxy(loader);
    }

    /** Whether the proxy of {@code type} is the dispatching subclass rather than an AOP proxy. */
    static boolean dispatches(ProxyConfig config, Class<?> type) {
        return config.isProxyTargetClass() && DispatchingSubclass.canProxy(type);
    }

    /**
     * The class of the proxy {@link #setBeanFactory} makes for {@code type} under {@code config}, loaded or made
     * now: AOT processing calls it at build time, so that the run time finds the class instead of defining it.
     */
    static Class<?> proxyClass(ProxyConfig config, Class<?> type, @Nullable ClassLoader loader) {
        return dispatches(config, type) ? DispatchingSubclass.generate(type, loader)
                : aopProxy(config, type, EmptyTargetSource.forClass(type, false), loader).getProxyClass(loader);
    }

    private static ProxyFactory aopProxy(ProxyConfig config, Class<?> type, TargetSource target,
            @Nullable ClassLoader loader) {
        ProxyFactory proxyFactory = new ProxyFactory();
        proxyFactory.copyFrom(config);
        proxyFactory.setTargetSource(target);
        if (!config.isProxyTargetClass() || type.isInterface() || Modifier.isPrivate(type.getModifiers())) {
            proxyFactory.setInterfaces(ClassUtils.getAllInterfacesForClass(type, loader));
        }
        proxyFactory.addInterface(AopInfrastructureBean.class);
        return proxyFactory;
    }

    @Override
    public @Nullable Object getObject() {
        return proxy;
    }

    @Override
    public @Nullable Class<?> getObjectType() {
        Object p = proxy;
        return p != null ? p.getClass() : targetType;
    }

    @Override
    public boolean isSingleton() {
        return true;
    }

    /** The running context's instance, straight from the scope; the bean factory only to create it. */
    static final class ContextTarget implements TargetSource {
        private final ContextBeanScope scope;
        private final BeanFactory factory;
        private final String name;
        private final Class<?> type;

        ContextTarget(ContextBeanScope scope, BeanFactory factory, String name, Class<?> type) {
            this.scope = scope;
            this.factory = factory;
            this.name = name;
            this.type = type;
        }

        @Override
        public Class<?> getTargetClass() {
            return type;
        }

        @Override
        public boolean isStatic() {
            return false;
        }

        @Override
        public Object getTarget() {
            Object existing = scope.existingInRunningContext(name);
            return existing != null ? existing : factory.getBean(name);
        }
    }
}
