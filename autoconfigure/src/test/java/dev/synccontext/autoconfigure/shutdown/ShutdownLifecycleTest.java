package dev.synccontext.autoconfigure.shutdown;

import dev.synccontext.spring.shutdown.ShutdownCompletedEvent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;
import dev.synccontext.autoconfigure.live.SyncContextLiveAutoConfiguration;
import dev.synccontext.registry.SyncContextRegistry;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.web.server.context.WebServerGracefulShutdownLifecycle;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Where the drain sits in Spring's lifecycle, and that it can be turned off. */
class ShutdownLifecycleTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner().withConfiguration(AutoConfigurations
            .of(SyncContextAutoConfiguration.class, SyncContextLiveAutoConfiguration.class,
                    SyncContextShutdownAutoConfiguration.class));

    @Test
    void itStopsInAPhaseAboveTheWebServersGracefulShutdown() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(ShutdownLifecycle.class);
            assertThat(context.getBean(ShutdownLifecycle.class).getPhase())
                    .isGreaterThan(WebServerGracefulShutdownLifecycle.SMART_LIFECYCLE_PHASE);
        });
    }

    @Test
    void itIsOffWithDrainEnabledFalse() {
        runner.withPropertyValues("synccontext.drain.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(ShutdownLifecycle.class));
    }

    /**
     * Spring's test framework pauses a cached context between test classes ({@code stop()}, later
     * {@code start()}): that is no shutdown, and the registry must still accept afterwards.
     */
    @Test
    void aStopThatIsNoCloseDrainsNothing() {
        runner.run(context -> {
            SyncContextRegistry registry = context.getBean(SyncContextRegistry.class);
            RendererSyncContext before = registry.create("session");
            context.stop();
            context.start();
            assertThat(before.isClosed()).isFalse();
            assertThat(registry.create("session").invokeAsync(() -> 42)).isCompletedWithValue(42);
        });
    }

    /**
     * A context that closes while stopped (a paused test context at the JVM's exit): Spring calls no
     * {@code stop()} on a bean that is not running, yet the drain runs, once, and closes the contexts.
     */
    @Test
    void aContextClosedWhileStoppedStillDrainsOnce() {
        Order log = new Order();
        List<RendererSyncContext> created = new CopyOnWriteArrayList<>();
        runner.withUserConfiguration(PhaseMate.class).withBean(Order.class, () -> log).run(context -> {
            created.add(context.getBean(SyncContextRegistry.class).create("session"));
            context.stop();
            assertThat(log.lines).as("a stop is no shutdown").doesNotContain("drained");
            context.close();
        });
        assertThat(log.lines).containsSubsequence("readiness REFUSING_TRAFFIC", "drained");
        assertThat(log.lines.stream().filter("drained"::equals)).as("drained once").hasSize(1);
        assertThat(created.get(0).isClosed()).isTrue();
    }

    /**
     * A lifecycle bean of the same (highest) phase, registered before the drain, as Spring's WebSocket and broker
     * handlers are: Spring would stop it first (same phase: registration order), closing its sessions before
     * they could be told to go away; the drain's declared dependency makes Spring stop the drain first.
     */
    @Test
    void itRunsBeforeTheLifecycleBeansOfItsOwnPhaseAndPublishesRefusingTrafficFirst() {
        Order log = new Order();
        List<String> order = log.lines;
        runner.withUserConfiguration(PhaseMate.class).withBean(Order.class, () -> log).run(context -> {
            assertThat(context.getBean(PhaseMate.Mate.class).isRunning()).isTrue();
            context.close();
        });
        assertThat(order).containsSubsequence("readiness REFUSING_TRAFFIC", "drained", "mate stopped");
        assertThat(order.indexOf("mate stopped")).isGreaterThan(order.indexOf("drained"));
    }

    /** What happened, in order (a bean: a {@code List} parameter would be injected as a collection of beans). */
    static final class Order {
        final List<String> lines = new CopyOnWriteArrayList<>();
    }

    @Configuration(proxyBeanMethods = false)
    static class PhaseMate {

        @Bean
        Mate mate(Order order) {
            return new Mate(order.lines);
        }

        @Bean
        ApplicationListener<AvailabilityChangeEvent<ReadinessState>> readiness(Order order) {
            return event -> order.lines.add("readiness " + event.getState());
        }

        @Bean
        ApplicationListener<ShutdownCompletedEvent> drained(Order order) {
            return event -> order.lines.add("drained");
        }

        static final class Mate implements SmartLifecycle {
            private final List<String> order;
            private volatile boolean running;

            Mate(List<String> order) {
                this.order = order;
            }

            @Override
            public void start() {
                running = true;
            }

            @Override
            public void stop() {
                running = false;
                order.add("mate stopped");
            }

            @Override
            public boolean isRunning() {
                return running;
            }

            @Override
            public int getPhase() {
                return DEFAULT_PHASE;
            }
        }
    }
}
