package dev.synccontext.autoconfigure.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.ContextClock;
import dev.synccontext.autoconfigure.AllParts;
import dev.synccontext.spring.durable.InMemoryStateStore;
import dev.synccontext.spring.durable.StateStore;
import dev.synccontext.ExecutorStatistics;
import java.lang.reflect.Proxy;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The optional health contributors: off unless switched on, the executor's saturation, the store's
 * reachability.
 */
class SyncContextHealthAutoConfigurationTest {

    private final ApplicationContextRunner runner = AllParts.plain()
            .withConfiguration(AutoConfigurations.of(SyncContextHealthAutoConfiguration.class));

    @Test
    void noHealthContributorUnlessSwitchedOn() {
        runner.run(context -> {
            assertThat(context).doesNotHaveBean(ExecutorHealthIndicator.class);
            assertThat(context).doesNotHaveBean(StateStoreHealthIndicator.class);
        });
    }

    @Test
    void switchedOnTheExecutorReportsUpWithItsFiguresAndTheStoreOnlyWhenThereIsOne() {
        runner.withPropertyValues("synccontext.health.enabled=true").run(context -> {
            Health health = context.getBean(ExecutorHealthIndicator.class).health();
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsKeys("running", "blocked", "idle", "maxThreads", "queuedDrains",
                    "capReached");
            assertThat(context).doesNotHaveBean(StateStoreHealthIndicator.class);
        });
        runner.withPropertyValues("synccontext.health.enabled=true").withBean(StateStore.class, () -> new InMemoryStateStore(ContextClock.system()))
                .run(context -> assertThat(context.getBean(StateStoreHealthIndicator.class).health().getStatus())
                        .isEqualTo(Status.UP));
    }

    @Test
    void theExecutorIsDownWhenBlockedThreadsReachTheSaturationShareOrWorkWaitsAtTheCap() {
        assertThat(new ExecutorHealthIndicator(pool(200, 0, 56, 0), 0.9).health().getStatus())
                .as("200 of 256 blocked, below 90 %").isEqualTo(Status.UP);
        assertThat(new ExecutorHealthIndicator(pool(231, 0, 25, 0), 0.9).health().getStatus())
                .as("231 of 256 blocked, 90 % is 231").isEqualTo(Status.DOWN);
        assertThat(new ExecutorHealthIndicator(pool(100, 156, 0, 3), 0.9).health().getStatus())
                .as("256 threads busy, none idle, drains waiting").isEqualTo(Status.DOWN);
        assertThat(new ExecutorHealthIndicator(pool(100, 156, 0, 0), 0.9).health().getStatus())
                .as("256 threads busy, nothing waiting").isEqualTo(Status.UP);
    }

    @Test
    void aStoreThatThrowsIsDownWithTheException() {
        StateStore unreachable = (StateStore) Proxy.newProxyInstance(StateStore.class.getClassLoader(),
                new Class<?>[] { StateStore.class }, (proxy, method, args) -> {
                    throw new IllegalStateException("Unable to connect to Redis");
                });
        Health health = new StateStoreHealthIndicator(unreachable).health();
        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails().toString()).contains("Unable to connect to Redis");
    }

    /** An executor of cap 256 with these threads blocked, running and idle, and these drains queued. */
    private static ExecutorStatistics pool(int blocked, int running, int idle, int queued) {
        return new ExecutorStatistics() {
            @Override public int parallelism() { return 2; }
            @Override public int maxThreads() { return 256; }
            @Override public int threads() { return blocked + running + idle; }
            @Override public int runningThreads() { return running; }
            @Override public int blockedThreads() { return blocked; }
            @Override public int idleThreads() { return idle; }
            @Override public int queuedTasks() { return queued; }
            @Override public long compensations() { return blocked; }
            @Override public long capReached() { return 0; }
        };
    }
}
