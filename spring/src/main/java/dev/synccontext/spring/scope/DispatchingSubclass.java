package dev.synccontext.spring.scope;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.framework.AopInfrastructureBean;
import org.springframework.cglib.core.ClassLoaderAwareGeneratorStrategy;
import org.springframework.cglib.core.SpringNamingPolicy;
import org.springframework.cglib.proxy.Callback;
import org.springframework.cglib.proxy.CallbackFilter;
import org.springframework.cglib.proxy.Dispatcher;
import org.springframework.cglib.proxy.Enhancer;
import org.springframework.cglib.proxy.Factory;
import org.springframework.cglib.proxy.MethodInterceptor;
import org.springframework.cglib.proxy.NoOp;
import org.springframework.objenesis.SpringObjenesis;
import org.springframework.util.ReflectionUtils;

/**
 * The class-based proxy of a context-scoped bean: a CGLIB subclass of the bean's class whose methods each
 * call {@link ContextScopedProxyFactoryBean.ContextTarget#getTarget()} and then the same method on the
 * instance it returns. Instantiated without running the bean class's constructor (Objenesis, as Spring's
 * own CGLIB proxies are), so the proxy holds no state of its own. One generated class per bean class,
 * shared by every proxy of that class; each proxy carries its own dispatcher.
 *
 * <p>Protected methods go through reflection instead: CGLIB's dispatcher calls {@code super} for them
 * (a subclass may not call a protected method on another instance in general), which would run the
 * method on the proxy's own, never-initialized fields.
 */
final class DispatchingSubclass {

    private static final SpringObjenesis OBJENESIS = new SpringObjenesis();

    /** Which callback each method of the subclass uses: the dispatcher, the proxy's identity, or none. */
    private enum Route implements CallbackFilter {
        INSTANCE;

        static final int DISPATCH = 0;
        static final int IDENTITY = 1;
        static final int SUPER = 2;
        static final int REFLECT = 3;

        @Override
        public int accept(Method method) {
            String name = method.getName();
            int arguments = method.getParameterCount();
            if ((name.equals("equals") && arguments == 1) || (name.equals("hashCode") && arguments == 0)) {
                return IDENTITY;
            }
            if (name.equals("finalize") && arguments == 0) {
                return SUPER; // never run the instance's finalizer for the proxy's
            }
            return Modifier.isProtected(method.getModifiers()) ? REFLECT : DISPATCH;
        }
    }

    private DispatchingSubclass() {
    }

    /** Whether a subclass can stand for {@code type}: a non-final, non-private class. */
    static boolean canProxy(Class<?> type) {
        int modifiers = type.getModifiers();
        return !type.isInterface() && !type.isArray() && !type.isPrimitive() && !Modifier.isFinal(modifiers)
                && !Modifier.isPrivate(modifiers);
    }

    static Object create(Class<?> type, ContextScopedProxyFactoryBean.ContextTarget target,
            @Nullable ClassLoader classLoader) {
        Enhancer enhancer = new Enhancer();
        enhancer.setSuperclass(type);
        enhancer.setInterfaces(new Class<?>[] { AopInfrastructureBean.class });
        enhancer.setNamingPolicy(SpringNamingPolicy.INSTANCE);
        enhancer.setStrategy(new ClassLoaderAwareGeneratorStrategy(classLoader));
        if (classLoader != null) {
            enhancer.setClassLoader(classLoader);
        }
        enhancer.setUseFactory(true);
        enhancer.setCallbackFilter(Route.INSTANCE);
        enhancer.setCallbackTypes(
                new Class<?>[] { Dispatcher.class, MethodInterceptor.class, NoOp.class, MethodInterceptor.class });
        Class<?> subclass = enhancer.createClass();
        Factory proxy = (Factory) OBJENESIS.newInstance(subclass, true);
        Dispatcher dispatcher = target::getTarget;
        MethodInterceptor identity = (self, method, args, methodProxy) -> method.getName().equals("equals")
                ? self == args[0] : System.identityHashCode(self);
        MethodInterceptor reflect = (self, method, args, methodProxy) -> {
            ReflectionUtils.makeAccessible(method);
            try {
                return method.invoke(target.getTarget(), args);
            } catch (InvocationTargetException thrown) {
                throw thrown.getTargetException();
            }
        };
        proxy.setCallbacks(new Callback[] { dispatcher, identity, NoOp.INSTANCE, reflect });
        return proxy;
    }
}
