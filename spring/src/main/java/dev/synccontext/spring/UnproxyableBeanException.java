package dev.synccontext.spring;

import java.util.List;

/**
 * A {@code @ContextScoped} or {@code @OnContext} class has public or protected methods a class-based proxy
 * cannot override (a final class, final methods: Java's {@code final}, or Kotlin's default). A call to such
 * a method on the proxy never reaches the running context's instance: it runs on the proxy's own fields,
 * one object shared by every session, or on fields that were never set. Thrown at startup, naming the
 * class, the methods ({@link #description()}) and the fix ({@link #action()}), so the application never serves
 * one user's state to another.
 */
public final class UnproxyableBeanException extends SyncContextConfigurationException {

    private static final long serialVersionUID = 1L;

    private final String beanName;
    private final transient Class<?> beanClass;
    private final List<String> finalMethods;

    public UnproxyableBeanException(String beanName, Class<?> beanClass, List<String> finalMethods, String description,
            String action) {
        super(description, action);
        this.beanName = beanName;
        this.beanClass = beanClass;
        this.finalMethods = List.copyOf(finalMethods);
    }

    /** The bean whose class cannot be proxied. */
    public String beanName() {
        return beanName;
    }

    /** Its class. */
    public Class<?> beanClass() {
        return beanClass;
    }

    /** The methods a proxy cannot override ({@code Type.name(params)}); empty when the class itself is final. */
    public List<String> finalMethods() {
        return finalMethods;
    }
}
