package dev.synccontext.autoconfigure;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.autoconfigure.SyncContextProperties.ExecutorKind;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.thread.Threading;
import org.springframework.core.env.Environment;
import org.springframework.core.task.VirtualThreadTaskExecutor;

/**
 * Turns {@code synccontext.executor} into an {@link Executor}. When the property is not set, it follows
 * Spring Boot's own switch: virtual threads when {@code spring.threads.virtual.enabled} is on (and the
 * JVM has them), otherwise the core's elastic default. Problems fail startup with an
 * {@link InvalidConfigurationPropertyValueException}, which Spring Boot reports naming the property.
 */
final class SyncContextExecutors {

    static final String PROPERTY = "synccontext.executor";
    static final String APPLICATION_TASK_EXECUTOR = "applicationTaskExecutor";

    private SyncContextExecutors() {
    }

    /** The kind used when {@code synccontext.executor} is not set. */
    static ExecutorKind defaultKind(Environment environment) {
        return Threading.VIRTUAL.isActive(environment) ? ExecutorKind.VIRTUAL_THREADS : ExecutorKind.ELASTIC;
    }

    /**
     * The executor for {@code configured}, or for {@link #defaultKind} when it is null.
     *
     * @param dependent the bean that will use it: the application task executor is then destroyed only
     *     after that bean (so queued work can still drain at shutdown)
     * @return the kind chosen, the executor and, when this call created one, what to shut down with the
     *     registry
     */
    static Resolved resolve(@Nullable ExecutorKind configured, Environment environment,
            ConfigurableListableBeanFactory beanFactory, String dependent) {
        ExecutorKind kind = configured != null ? configured : defaultKind(environment);
        return switch (kind) {
            case ELASTIC -> new Resolved(kind, RendererSyncContext.defaultExecutor(), null);
            case COMMON_POOL -> new Resolved(kind, ForkJoinPool.commonPool(), null);
            case VIRTUAL_THREADS -> new Resolved(kind, virtualThreads(Runtime.version().feature()), null);
            case APPLICATION_TASK_EXECUTOR -> {
                try {
                    Executor executor = beanFactory.getBean(APPLICATION_TASK_EXECUTOR, Executor.class);
                    beanFactory.registerDependentBean(APPLICATION_TASK_EXECUTOR, dependent);
                    yield new Resolved(kind, executor, null);
                } catch (NoSuchBeanDefinitionException missing) {
                    throw new InvalidConfigurationPropertyValueException(PROPERTY, kind.id(),
                            "There is no Executor bean named '" + APPLICATION_TASK_EXECUTOR + "' (Spring Boot's"
                                    + " task execution auto-configuration backs off when the application defines"
                                    + " its own Executor). Define one with that name, or use elastic.");
                }
            }
        };
    }

    /**
     * A new virtual thread per drain, named {@code synccontext-N} (Spring's
     * {@link VirtualThreadTaskExecutor}: nothing to shut down); needs Java 21 ({@code javaFeature}).
     */
    static Executor virtualThreads(int javaFeature) {
        if (javaFeature < 21) {
            throw new InvalidConfigurationPropertyValueException(PROPERTY, ExecutorKind.VIRTUAL_THREADS.id(),
                    "Virtual threads need Java 21 or later; this application runs on Java " + javaFeature
                            + ". Run on Java 21+, or use elastic (the default), common-pool or"
                            + " application-task-executor.");
        }
        return new VirtualThreadTaskExecutor("synccontext-");
    }

    /** The kind chosen, its executor, and the service to shut down with the registry if this class created it. */
    record Resolved(ExecutorKind kind, Executor executor, @Nullable ExecutorService owned) {
    }
}
