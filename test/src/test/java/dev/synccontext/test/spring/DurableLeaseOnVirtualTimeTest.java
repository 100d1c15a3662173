package dev.synccontext.test.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.autoconfigure.SyncContextAutoConfiguration;
import dev.synccontext.autoconfigure.durable.SyncContextDurableAutoConfiguration;
import dev.synccontext.autoconfigure.scope.SyncContextScopeAutoConfiguration;
import dev.synccontext.autoconfigure.session.SyncContextSessionAutoConfiguration;
import dev.synccontext.spring.durable.ForwardingStateStore;
import dev.synccontext.spring.durable.InMemoryStateStore;
import dev.synccontext.spring.durable.NodeLease;
import dev.synccontext.spring.durable.StateStore;
import dev.synccontext.spring.durable.session.DurableContexts;
import dev.synccontext.spring.session.SessionContexts;
import dev.synccontext.test.SyncContextTestKit;
import dev.synccontext.test.cluster.Counter;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * A {@code @Durable} session under the Spring kit: its node lease is renewed as virtual time passes, so a jump far
 * past the lease's ttl keeps the session owned and its state in place.
 */
class DurableLeaseOnVirtualTimeTest {

    private static final Duration TTL = Duration.ofSeconds(15);

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SyncContextTestAutoConfiguration.class,
                    SyncContextAutoConfiguration.class, SyncContextSessionAutoConfiguration.class,
                    SyncContextScopeAutoConfiguration.class, SyncContextDurableAutoConfiguration.class))
            .withUserConfiguration(CounterApp.class)
            // The session's context outlives the jumps: only the lease is under test.
            .withPropertyValues("synccontext.session.idle-timeout=1h",
                    "synccontext.durable.node-lease-ttl=" + TTL.toSeconds() + "s");

    @Import(Counter.class)
    static class CounterApp {
    }

    /** A store that never gets the node's renewals (a node that stopped renewing), on the kit's clock. */
    @Configuration(proxyBeanMethods = false)
    static class UnrenewedStore {
        @Bean
        StateStore unrenewedStore(SyncContextTestKit kit) {
            return new ForwardingStateStore(new InMemoryStateStore(kit.clock())) {
                @Override
                public boolean renewNodeLease(NodeLease lease) {
                    return true; // answered, never applied
                }
            };
        }
    }

    @Test
    void aJumpOfThreeTtlsKeepsTheSessionOwnedAndItsState() {
        runner.run(app -> {
            SyncContextTestKit kit = app.getBean(SyncContextTestKit.class);
            RendererSyncContext context = firstCall(app);
            long epoch = app.getBean(DurableContexts.class).leaseEpoch();

            kit.advanceBy(TTL.multipliedBy(3));

            assertOwnedThroughout(app, context, epoch);
            assertThat(increment(app, context)).as("the same copy, not a restored one").isEqualTo(2);
            kit.verify();
        });
    }

    @Test
    void stepsOfHalfATtlUpToThreeTtlsKeepTheSessionOwnedAndItsState() {
        runner.run(app -> {
            SyncContextTestKit kit = app.getBean(SyncContextTestKit.class);
            RendererSyncContext context = firstCall(app);
            long epoch = app.getBean(DurableContexts.class).leaseEpoch();

            for (int step = 0; step < 6; step++) {
                kit.advanceBy(TTL.dividedBy(2));
                assertThat(increment(app, context)).as("after step %d", step + 1).isEqualTo(step + 2);
            }

            assertOwnedThroughout(app, context, epoch);
            kit.verify();
        });
    }

    @Test
    void premiseALeaseWhoseRenewalsNeverReachTheStoreExpiresInTheSameJump() {
        runner.withUserConfiguration(UnrenewedStore.class).run(app -> {
            SyncContextTestKit kit = app.getBean(SyncContextTestKit.class);
            DurableContexts durable = app.getBean(DurableContexts.class);
            StateStore store = app.getBean(StateStore.class);
            // No session: a snapshot refused on a writer thread would queue its context's release on the kit.
            assertThat(store.acquireNodeLease(durable.nodeId(), TTL)).as("live before the jump").isEmpty();

            kit.advanceBy(TTL.multipliedBy(3));

            assertThat(store.acquireNodeLease(durable.nodeId(), TTL))
                    .as("the store let the node's lease expire: the jump would have lost it").isPresent();
            kit.verify();
        });
    }

    /** The node's lease is the one it took at start, live in the store, and the session's copy was never dropped. */
    private static void assertOwnedThroughout(AssertableWebApplicationContext app, RendererSyncContext context,
            long epoch) {
        DurableContexts durable = app.getBean(DurableContexts.class);
        assertThat(durable.leaseEpoch()).as("the lease taken at start, renewed on the way").isEqualTo(epoch);
        assertThat(app.getBean(StateStore.class).acquireNodeLease(durable.nodeId(), TTL))
                .as("the store holds the node's lease live").isEmpty();
        assertThat(durable.ownedSessions()).as("the session is still owned here").isOne();
        assertThat(context.isClosed()).as("its context was not released").isFalse();
        assertThat(durable.counters().rejected()).as("no snapshot refused").isZero();
    }

    /** Session {@code s1}'s context, after its first call through the durable bean (the count is 1). */
    private static RendererSyncContext firstCall(AssertableWebApplicationContext app) {
        RendererSyncContext context = sessionContext(app, "s1");
        assertThat(increment(app, context)).isEqualTo(1);
        return context;
    }

    /** The context of session {@code sessionId}, as the starter binds it on the session's first request. */
    private static RendererSyncContext sessionContext(AssertableWebApplicationContext app, String sessionId) {
        SessionContexts sessions = app.getBean(SessionContexts.class);
        AtomicReference<String> attribute = new AtomicReference<>();
        String handle = sessions.bindHandle(null, sessionId, attribute::set);
        return sessions.find(handle).orElseThrow();
    }

    /** A call through the durable bean's proxy on the session's context, run by the kit. */
    private static int increment(AssertableWebApplicationContext app, RendererSyncContext context) {
        SyncContextTestKit kit = app.getBean(SyncContextTestKit.class);
        Counter counter = app.getBean(Counter.class);
        CompletableFuture<Integer> answer = context.invokeAsync(counter::increment);
        kit.runUntilIdle();
        return answer.join();
    }
}
