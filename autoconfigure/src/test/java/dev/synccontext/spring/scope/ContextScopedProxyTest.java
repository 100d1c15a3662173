package dev.synccontext.spring.scope;

import dev.synccontext.autoconfigure.scope.SyncContextScopeAutoConfiguration;


import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;
import dev.synccontext.registry.SyncContextRegistry;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.ScopedProxyMode;

/** What a context-scoped bean's proxy is: which calls reach the context's instance and which are its own. */
class ContextScopedProxyTest {

    static final AtomicInteger CONSTRUCTED = new AtomicInteger();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SyncContextAutoConfiguration.class,
                    SyncContextScopeAutoConfiguration.class))
            .withUserConfiguration(Beans.class);

    @Test
    void everyKindOfMethodReachesTheRunningContextsInstance() {
        runner.run(spring -> {
            Tally tally = spring.getBean(Tally.class);
            RendererSyncContext a = spring.getBean(SyncContextRegistry.class).forKey("a");
            a.invokeAsync(() -> {
                tally.add(5);           // public
                tally.addTwice(1);      // protected
                tally.addPackage(1);    // package-private
                return null;
            }).join();
            assertThat(a.invokeAsync(tally::total).join()).isEqualTo(8);
            assertThat(a.invokeAsync(tally::toString).join()).isEqualTo("tally of a: 8");
        });
    }

    @Test
    void theProxyRunsNoConstructorOfTheBeanClass() {
        CONSTRUCTED.set(0);
        runner.run(spring -> {
            Tally tally = spring.getBean(Tally.class);
            assertThat(CONSTRUCTED).as("proxy creation must not construct a bean").hasValue(0);
            RendererSyncContext a = spring.getBean(SyncContextRegistry.class).forKey("a");
            RendererSyncContext b = spring.getBean(SyncContextRegistry.class).forKey("b");
            a.invokeAsync(tally::total).join();
            b.invokeAsync(tally::total).join();
            assertThat(CONSTRUCTED).as("one instance per context, created on first use").hasValue(2);
        });
    }

    @Test
    void equalsAndHashCodeAreTheProxysIdentityNotAContextsInstance() {
        runner.run(spring -> {
            Tally tally = spring.getBean(Tally.class);
            Tally same = spring.getBean(Tally.class);
            assertThat(same).isSameAs(tally);
            // Off any context these must not resolve an instance (that would throw NoCurrentContextException).
            assertThat(tally.equals(same)).isTrue();
            assertThat(tally.hashCode()).isEqualTo(System.identityHashCode(tally));
            assertThat(tally.equals(new Tally("x"))).isFalse();
        });
    }

    @Test
    void anInterfaceProxyStillResolvesPerContext() {
        runner.run(spring -> {
            Named named = spring.getBean(Named.class);
            assertThat(named).isNotInstanceOf(Tally.class);
            SyncContextRegistry registry = spring.getBean(SyncContextRegistry.class);
            assertThat(registry.forKey("a").invokeAsync(named::name).join()).isEqualTo("a");
            assertThat(registry.forKey("b").invokeAsync(named::name).join()).isEqualTo("b");
        });
    }

    /** Per-context state with no no-argument constructor and methods of every visibility. */
    public static class Tally {
        private final String owner;
        private int total;

        public Tally(String owner) {
            this.owner = owner;
            CONSTRUCTED.incrementAndGet();
        }

        public void add(int n) {
            total += n;
        }

        protected void addTwice(int n) {
            total += 2 * n;
        }

        void addPackage(int n) {
            total += n;
        }

        public int total() {
            return total;
        }

        @Override
        public String toString() {
            return "tally of " + owner + ": " + total;
        }
    }

    public interface Named {
        String name();
    }

    @Configuration(proxyBeanMethods = false)
    static class Beans {
        @Bean
        @ContextScoped
        Tally tally() {
            return new Tally(RendererSyncContext.current().orElseThrow().name());
        }

        @Bean
        @ContextScoped(proxyMode = ScopedProxyMode.INTERFACES)
        Named named() {
            String name = RendererSyncContext.current().orElseThrow().name();
            return () -> name;
        }
    }
}
