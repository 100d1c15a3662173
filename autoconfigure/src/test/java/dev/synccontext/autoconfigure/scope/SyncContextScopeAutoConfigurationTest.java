package dev.synccontext.autoconfigure.scope;

import dev.synccontext.spring.scope.ContextScoped;
import dev.synccontext.spring.scope.NoCurrentContextException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;
import dev.synccontext.registry.SyncContextRegistry;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The scope part's conditions and rules, without a web server. */
class SyncContextScopeAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SyncContextAutoConfiguration.class,
                    SyncContextScopeAutoConfiguration.class))
            .withUserConfiguration(Counters.class);

    @org.junit.jupiter.api.BeforeEach
    void forget() {
        Counters.DESTROYED.set(0);
    }

    @Test
    void eachKeyedContextGetsItsOwnInstanceInsideItsCallbacks() {
        withCounter((registry, counter) -> {
            RendererSyncContext a = registry.forKey("a");
            RendererSyncContext b = registry.forKey("b");
            a.invokeAsync(counter::increment).join();
            a.invokeAsync(counter::increment).join();
            b.invokeAsync(counter::increment).join();
            assertThat(a.invokeAsync(counter::value).join()).isEqualTo(2);
            assertThat(b.invokeAsync(counter::value).join()).isEqualTo(1);
        });
    }

    @Test
    void theProxyAsksTheScopeDirectlyInsteadOfSpringsScopedProxy() {
        runner.run(context -> {
            Counter counter = context.getBean(Counter.class);
            assertThat(counter).isInstanceOf(org.springframework.aop.framework.AopInfrastructureBean.class)
                    .as("not Spring's ScopedProxyFactoryBean, which goes through getBean on every call")
                    .isNotInstanceOf(org.springframework.aop.scope.ScopedObject.class);
            assertThat(context.getBean(SyncContextRegistry.class).forKey("a").invokeAsync(counter::increment).join())
                    .isEqualTo(1);
        });
    }

    @Test
    void strictModeRefusesACallOffAnyCallbackAndNamesTheFix() {
        runner.withPropertyValues("synccontext.context-scope.strict=true").run(context -> {
            Counter counter = context.getBean(Counter.class);
            assertThat(catchThrowable(counter::value)).isInstanceOf(NoCurrentContextException.class)
                    .hasMessageContaining("strict=true").hasMessageContaining("invokeAsync");
            RendererSyncContext a = context.getBean(SyncContextRegistry.class).forKey("a");
            assertThat(a.invokeAsync(counter::increment).join()).as("inside a callback it resolves").isEqualTo(1);
        });
    }

    @Test
    void aContextTheRegistryDidNotCreateIsRefusedSinceNothingWouldDestroyItsBeans() {
        runner.run(context -> {
            Counter counter = context.getBean(Counter.class);
            try (RendererSyncContext own = RendererSyncContext.create()) {
                Throwable failure = own.invokeAsync(counter::value).handle((v, t) -> t).join();
                assertThat(failure).isInstanceOf(NoCurrentContextException.class).hasMessageContaining("did not create");
            }
        });
    }

    @Test
    void aBeanOfAClosedContextIsNotCreatedAgainFromOutsideIt() {
        withCounter((registry, counter) -> {
            RendererSyncContext a = registry.forKey("a");
            a.invokeAsync(counter::increment).join();
            registry.remove("a");
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
                    .until(() -> Counters.DESTROYED.get() == 1);
            assertThat(a.invokeAsync(counter::value).isCompletedExceptionally()).as("closed: refused").isTrue();
        });
    }

    @Test
    void shutdownDestroysTheBeansOfEveryOpenContext() {
        withCounter((registry, counter) -> {
            registry.forKey("a").invokeAsync(counter::increment).join();
            registry.forKey("b").invokeAsync(counter::increment).join();
        });
        assertThat(Counters.DESTROYED).hasValue(2);
    }

    /** Runs {@code check} in a fresh application with its registry and the context-scoped counter's proxy. */
    private void withCounter(CounterCheck check) {
        runner.run(context -> check.run(context.getBean(SyncContextRegistry.class), context.getBean(Counter.class)));
    }

    @FunctionalInterface
    interface CounterCheck {
        void run(SyncContextRegistry registry, Counter counter) throws Exception;
    }

    @Configuration(proxyBeanMethods = false)
    static class Counters {
        static final AtomicInteger DESTROYED = new AtomicInteger();

        @Bean(destroyMethod = "destroy")
        @ContextScoped
        Counter counter() {
            return new Counter();
        }
    }

    static class Counter {
        private int value;

        int increment() {
            return ++value;
        }

        int value() {
            return value;
        }

        void destroy() {
            Counters.DESTROYED.incrementAndGet();
        }
    }
}
