package dev.synccontext.spring.scope;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ObjectFactory;

/**
 * The context-scoped beans of one context and their destruction callbacks. Thread-safe (a request thread
 * and the context's callbacks may resolve at once); destroyed once, in reverse order of registration of the
 * destruction callbacks.
 */
final class ContextBeans {

    private static final Log LOG = LogFactory.getLog(ContextBeans.class);

    private final String contextName;
    private final Map<String, Object> beans = new ConcurrentHashMap<>(); // read without the lock by existing()
    private final Map<String, Runnable> destructionCallbacks = new LinkedHashMap<>();
    private boolean destroyed;

    ContextBeans(String contextName) {
        this.contextName = contextName;
    }

    /** The bean if it was created already: lock-free, for the proxy's fast path. */
    @Nullable Object existing(String name) {
        return beans.get(name);
    }

    synchronized Object get(String name, ObjectFactory<?> factory) {
        Object bean = beans.get(name);
        if (bean == null) {
            if (destroyed) {
                throw new IllegalStateException("The context-scoped beans of context '" + contextName
                        + "' were destroyed with the context; '" + name + "' cannot be created again");
            }
            bean = factory.getObject();
            beans.put(name, bean);
        }
        return bean;
    }

    synchronized @Nullable Object remove(String name) {
        destructionCallbacks.remove(name);
        return beans.remove(name);
    }

    synchronized void registerDestructionCallback(String name, Runnable callback) {
        destructionCallbacks.put(name, callback);
    }

    /** Runs every destruction callback once, newest bean first; a failing one is logged and the rest run. */
    void destroy() {
        List<Map.Entry<String, Runnable>> callbacks;
        synchronized (this) {
            if (destroyed) {
                return;
            }
            destroyed = true;
            callbacks = new ArrayList<>(destructionCallbacks.entrySet());
            destructionCallbacks.clear();
            beans.clear();
        }
        for (int i = callbacks.size() - 1; i >= 0; i--) {
            try {
                callbacks.get(i).getValue().run();
            } catch (RuntimeException | Error failure) {
                LOG.error("Destroying context-scoped bean '" + callbacks.get(i).getKey() + "' of context '"
                        + contextName + "' failed", failure);
            }
        }
    }
}
