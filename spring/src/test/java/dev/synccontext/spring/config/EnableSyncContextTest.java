package dev.synccontext.spring.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.CallbackDecorator;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.registry.ContextTemplate;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.spring.scope.ContextScoped;
import jakarta.annotation.PreDestroy;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.stereotype.Component;

/** {@code @EnableSyncContext} in a plain Spring application, without Spring Boot. */
class EnableSyncContextTest {

    @BeforeEach
    void forget() {
        Counter.DESTROYED.set(0);
        MarkingDecorator.RAN.set(0);
    }

    @Test
    void theRegistryIsDeclaredUnderBootsBeanName() {
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(Application.class)) {
            assertThat(context.getBeanNamesForType(SyncContextRegistry.class)).as("registry beans")
                    .containsExactly("syncContextRegistry");
        }
    }

    @Test
    void eachContextGetsItsOwnContextScopedInstanceInsideItsCallbacks() {
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(Application.class,
                Counter.class)) {
            SyncContextRegistry registry = context.getBean(SyncContextRegistry.class);
            Counter counter = context.getBean(Counter.class);
            RendererSyncContext a = registry.forKey("a");
            RendererSyncContext b = registry.forKey("b");
            assertThat(a.invokeAsync(counter::increment).join()).isEqualTo(1);
            assertThat(a.invokeAsync(counter::increment).join()).isEqualTo(2);
            assertThat(a.invokeAsync(counter::increment).join()).as("a's instance, third call").isEqualTo(3);
            assertThat(b.invokeAsync(counter::increment).join()).as("b's own instance, not a's").isEqualTo(1);
        }
    }

    @Test
    void preDestroyRunsWhenTheContextIsReleased() {
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(Application.class,
                Counter.class)) {
            SyncContextRegistry registry = context.getBean(SyncContextRegistry.class);
            Counter counter = context.getBean(Counter.class);
            registry.forKey("a").invokeAsync(counter::increment).join();
            registry.remove("a");
            Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> Counter.DESTROYED.get() == 1);
        }
    }

    @Test
    void aCallbackDecoratorBeanWrapsQueuedCallbacks() {
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(Application.class,
                MarkingDecorator.class)) {
            CompletableFuture<Void> ran = new CompletableFuture<>();
            context.getBean(SyncContextRegistry.class).forKey("a").post(() -> ran.complete(null)); // always queued
            ran.join();
            assertThat(MarkingDecorator.RAN).as("callbacks run through the decorator bean").hasPositiveValue();
        }
    }

    @Test
    void anApplicationsOwnRegistryIsUsedAndNoSecondIsDeclared() {
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(
                ApplicationWithItsOwnRegistry.class, Counter.class)) {
            SyncContextRegistry own = context.getBean("ownRegistry", SyncContextRegistry.class);
            assertThat(context.getBeanNamesForType(SyncContextRegistry.class)).as("registry beans")
                    .containsExactly("ownRegistry");
            Counter counter = context.getBean(Counter.class);
            assertThat(own.forKey("a").invokeAsync(counter::increment).join())
                    .as("the scope serves the application's registry's contexts").isEqualTo(1);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableSyncContext
    static class Application {
    }

    @Configuration(proxyBeanMethods = false)
    @EnableSyncContext
    static class ApplicationWithItsOwnRegistry {

        @Bean
        SyncContextRegistry ownRegistry() {
            return new SyncContextRegistry(ContextTemplate.defaults(RendererSyncContext.defaultExecutor(), "elastic"));
        }
    }

    @Component
    @ContextScoped
    static class Counter {
        static final AtomicInteger DESTROYED = new AtomicInteger();

        private int value;

        int increment() {
            return ++value;
        }

        @PreDestroy
        void destroy() {
            DESTROYED.incrementAndGet();
        }
    }

    @Component
    static class MarkingDecorator implements CallbackDecorator {
        static final AtomicInteger RAN = new AtomicInteger();

        @Override
        public Runnable decorate(Runnable callback) {
            return () -> {
                RAN.incrementAndGet();
                callback.run();
            };
        }

        @Override
        public <T> Callable<T> decorate(Callable<T> callback) {
            return () -> {
                RAN.incrementAndGet();
                return callback.call();
            };
        }
    }
}
