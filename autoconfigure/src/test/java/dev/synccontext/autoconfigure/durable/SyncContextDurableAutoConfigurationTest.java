package dev.synccontext.autoconfigure.durable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.autoconfigure.AllParts;
import dev.synccontext.autoconfigure.scope.SyncContextScopeAutoConfiguration;
import dev.synccontext.spring.durable.InMemoryStateStore;
import dev.synccontext.spring.durable.StateStore;
import dev.synccontext.spring.durable.session.Durable;
import dev.synccontext.spring.durable.session.DurableContexts;
import dev.synccontext.spring.scope.ContextScoped;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Import;

/** When the durable layer exists, and what it refuses at startup. */
class SyncContextDurableAutoConfigurationTest {

    private final WebApplicationContextRunner servlet = AllParts.servlet().withConfiguration(AutoConfigurations.of(
            SyncContextScopeAutoConfiguration.class, SyncContextDurableAutoConfiguration.class));

    @ContextScoped
    public static class PlainCounter {
        public int count;
    }

    @ContextScoped
    @Durable
    public static class DurableCounter {
        public int count;
    }

    @ContextScoped
    @Durable
    public static class NoDefaultConstructor {
        public final int count;

        public NoDefaultConstructor(Integer count) {
            this.count = count;
        }
    }

    @Import(PlainCounter.class)
    static class PlainApp {
    }

    @Import(DurableCounter.class)
    static class DurableApp {
    }

    @Import(NoDefaultConstructor.class)
    static class BrokenApp {
    }

    @Test
    void withoutADurableBeanNothingOfTheLayerExists() {
        servlet.withUserConfiguration(PlainApp.class).run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(DurableContexts.class)
                    .doesNotHaveBean(StateStore.class);
        });
    }

    @Test
    void aDurableBeanGetsTheLayerWithAnInMemoryStoreWithoutRedis() {
        servlet.withUserConfiguration(DurableApp.class).run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(DurableContexts.class)
                    .getBean(StateStore.class).isInstanceOf(InMemoryStateStore.class);
        });
    }

    @Test
    void offByPropertyEvenWithADurableBean() {
        servlet.withUserConfiguration(DurableApp.class).withPropertyValues("synccontext.durable.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(DurableContexts.class));
    }

    @Test
    void aDurableBeanTheMapperCannotRoundTripFailsStartupNamingTheBean() {
        servlet.withUserConfiguration(BrokenApp.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).hasStackTraceContaining("@Durable bean")
                    .hasStackTraceContaining("NoDefaultConstructor").hasStackTraceContaining("no-argument constructor");
        });
    }
}
