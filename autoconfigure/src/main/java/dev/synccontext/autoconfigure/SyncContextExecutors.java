package dev.synccontext.autoconfigure;

import dev.synccontext.autoconfigure.SyncContextProperties.ExecutorKind;
import java.lang.reflect.Method;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ThreadFactory;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Turns {@code synccontext.executor} into an {@link Executor}. Problems fail startup with an
 * {@link InvalidConfigurationPropertyValueException}, which Spring Boot reports naming the property.
 */
final class SyncContextExecutors {

    static final String PROPERTY = "synccontext.executor";
    static final String APPLICATION_TASK_EXECUTOR = "applicationTaskExecutor";

    private SyncContextExecutors() {
    }

    /**
     * The executor for {@code kind}.
     *
     * @param dependent the bean that will use it: the application task executor is then destroyed only
     *     after that bean (so queued work can still drain at shutdown)
     * @return the executor and, when this call created it, what to shut down with the registry
     */
    static Resolved resolve(ExecutorKind kind, ConfigurableListableBeanFactory beanFactory, String dependent) {
        return switch (kind) {
            case COMMON_POOL -> new Resolved(ForkJoinPool.commonPool(), null);
            case VIRTUAL_THREADS -> {
                ExecutorService virtual = virtualThreadPerTaskExecutor(Runtime.version().feature());
                yield new Resolved(virtual, virtual);
            }
            case APPLICATION_TASK_EXECUTOR -> {
                try {
                    Executor executor = beanFactory.getBean(APPLICATION_TASK_EXECUTOR, Executor.class);
                    beanFactory.registerDependentBean(APPLICATION_TASK_EXECUTOR, dependent);
                    yield new Resolved(executor, null);
                } catch (NoSuchBeanDefinitionException missing) {
                    throw new InvalidConfigurationPropertyValueException(PROPERTY, kind.id(),
                            "There is no Executor bean named '" + APPLICATION_TASK_EXECUTOR + "' (Spring Boot's"
                                    + " task execution auto-configuration backs off when the application defines"
                                    + " its own Executor). Define one with that name, or use common-pool.");
                }
            }
        };
    }

    /** A new virtual thread per task, named {@code synccontext-N}; needs Java 21 ({@code javaFeature}). */
    static ExecutorService virtualThreadPerTaskExecutor(int javaFeature) {
        if (javaFeature < 21) {
            throw new InvalidConfigurationPropertyValueException(PROPERTY, ExecutorKind.VIRTUAL_THREADS.id(),
                    "Virtual threads need Java 21 or later; this application runs on Java " + javaFeature
                            + ". Run on Java 21+, or use common-pool or application-task-executor.");
        }
        try {
            // Java 21 API, called reflectively because this module is compiled for Java 17.
            Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
            Method name = Class.forName("java.lang.Thread$Builder").getMethod("name", String.class, long.class);
            builder = name.invoke(builder, "synccontext-", 0L);
            ThreadFactory factory = (ThreadFactory) Class.forName("java.lang.Thread$Builder").getMethod("factory")
                    .invoke(builder);
            return (ExecutorService) java.util.concurrent.Executors.class
                    .getMethod("newThreadPerTaskExecutor", ThreadFactory.class).invoke(null, factory);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Could not create a virtual-thread executor on Java " + javaFeature, e);
        }
    }

    /** An executor, and the service to shut down with the registry if this class created it. */
    record Resolved(Executor executor, @Nullable ExecutorService owned) {
    }
}
