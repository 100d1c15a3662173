package dev.synccontext.spring.session;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.testing.Race;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import dev.synccontext.registry.ContextTemplate;
import dev.synccontext.registry.SyncContextRegistry;

/** The node-local half of the handle design, without Spring or HTTP: one rule per test. */
class SessionContextsTest {

    private static final Duration IDLE = Duration.ofMinutes(5);

    private final SyncContextRegistry registry = new SyncContextRegistry(
            ContextTemplate.defaults(ForkJoinPool.commonPool(), "common-pool"));
    private final SessionContexts nodeA = new SessionContexts(registry, "session", "node-a", IDLE);

    @AfterEach
    void closeRegistry() {
        nodeA.close();
        registry.close();
    }

    @Test
    void firstUseMakesASmallStringHandleNamingThisNode() {
        SessionContexts.Binding first = nodeA.bind(null, "s1");
        assertThat(first.attributeToWrite()).as("a handle is written on first use").isNotNull()
                .endsWith("@node-a").hasSizeLessThan(40);
        assertThat(first.context().isClosed()).isFalse();
        assertThat(registry.statistics("session").contexts()).isEqualTo(1);
    }

    @Test
    void laterRequestsOnTheSameNodeGetTheSameContextAndWriteNothing() {
        SessionContexts.Binding first = nodeA.bind(null, "s1");
        for (int i = 0; i < 5; i++) {
            SessionContexts.Binding later = nodeA.bind(first.attributeToWrite(), "s1");
            assertThat(later.context()).isSameAs(first.context());
            assertThat(later.attributeToWrite()).as("no session write after the first request").isNull();
        }
    }

    @Test
    void theHandleNotTheSessionIdFindsTheContextSoAChangedSessionIdKeepsIt() {
        SessionContexts.Binding first = nodeA.bind(null, "old-id");
        SessionContexts.Binding afterLogin = nodeA.bind(first.attributeToWrite(), "new-id");
        assertThat(afterLogin.context()).isSameAs(first.context());
        assertThat(afterLogin.attributeToWrite()).isNull();
    }

    @Test
    void racingFirstRequestsOfOneSessionGetOneHandleAndOneContext() throws Exception {
        int threads = 16;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 50; round++) {
                String sessionId = "race-" + round;
                CountDownLatch start = new CountDownLatch(1);
                List<Future<SessionContexts.Binding>> all = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    all.add(pool.submit(() -> {
                        start.await();
                        return nodeA.bind(null, sessionId);
                    }));
                }
                start.countDown();
                Set<RendererSyncContext> contexts = new HashSet<>();
                Set<String> handles = new HashSet<>();
                for (Future<SessionContexts.Binding> f : all) {
                    contexts.add(f.get(10, TimeUnit.SECONDS).context());
                    handles.add(f.get().attributeToWrite());
                }
                assertThat(contexts).as("round %d: one context for one session", round).hasSize(1);
                assertThat(handles).as("round %d: every racer writes the same handle", round).hasSize(1);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(nodeA.size()).isEqualTo(50);
    }

    @Test
    void aSessionArrivingFromAnotherNodeWithNoContextHereIsAHandoffAndNamesThisNode() {
        SessionContexts nodeB = new SessionContexts(registry, "session", "node-b", IDLE);
        String handleFromA = nodeA.bind(null, "s1").attributeToWrite();

        SessionContexts.Binding onB = nodeB.bind(handleFromA, "s1");

        assertThat(nodeB.handoffs()).isEqualTo(1);
        assertThat(nodeB.splits()).isZero();
        assertThat(onB.attributeToWrite()).as("the handle now names node-b, with the same key")
                .isEqualTo(handleFromA.replace("@node-a", "@node-b"));
        assertThat(nodeB.bind(onB.attributeToWrite(), "s1").attributeToWrite()).isNull();
    }

    @Test
    void aSessionComingBackWhileItsContextHereIsStillOpenIsASplit() {
        SessionContexts nodeB = new SessionContexts(registry, "session", "node-b", IDLE);
        SessionContexts.Binding onA = nodeA.bind(null, "s1");
        String onB = nodeB.bind(onA.attributeToWrite(), "s1").attributeToWrite();

        SessionContexts.Binding backOnA = nodeA.bind(onB, "s1");

        assertThat(backOnA.context()).as("node-a still had the session's context open").isSameAs(onA.context());
        assertThat(nodeA.splits()).isEqualTo(1);
        assertThat(nodeA.handoffs()).isZero();
        assertThat(backOnA.attributeToWrite()).endsWith("@node-a");
    }

    @Test
    void releaseClosesTheContextOnceAndIsIdempotent() {
        SessionContexts.Binding first = nodeA.bind(null, "s1");
        assertThat(nodeA.release(first.attributeToWrite())).isTrue();
        assertThat(first.context().isClosed()).isTrue();
        assertThat(nodeA.release(first.attributeToWrite())).as("second release").isFalse();
        assertThat(nodeA.release(null)).isFalse();
        assertThat(nodeA.release("not a handle")).isFalse();
        assertThat(nodeA.endedReleases()).isEqualTo(1);
        assertThat(registry.statistics("session").contexts()).isZero();
    }

    @Test
    void aReleasedSessionThatComesBackGetsAFreshContext() {
        SessionContexts.Binding first = nodeA.bind(null, "s1");
        nodeA.release(first.attributeToWrite());
        SessionContexts.Binding again = nodeA.bind(first.attributeToWrite(), "s1");
        assertThat(again.context()).isNotSameAs(first.context());
        assertThat(again.context().isClosed()).isFalse();
    }

    @Test
    void idleEvictionReleasesOnlyContextsUnusedForTheIdleTimeout() {
        SessionContexts.Binding idle = nodeA.bind(null, "idle");
        long afterIdleBound = System.nanoTime();
        SessionContexts.Binding busy = nodeA.bind(null, "busy");

        long now = afterIdleBound + IDLE.toNanos();
        // "busy" was bound after afterIdleBound, so at `now` it has been idle for less than the timeout.
        assertThat(nodeA.evictIdle(now)).isEqualTo(1);
        assertThat(idle.context().isClosed()).isTrue();
        assertThat(busy.context().isClosed()).isFalse();
        assertThat(nodeA.idleEvictions()).isEqualTo(1);
        assertThat(nodeA.evictIdle(now)).as("idempotent").isZero();
        assertThat(nodeA.release(idle.attributeToWrite())).as("already evicted").isFalse();
    }

    @Test
    void aContextClosedBehindItsBackIsReplacedOnTheNextRequest() {
        SessionContexts.Binding first = nodeA.bind(null, "s1");
        first.context().close();
        SessionContexts.Binding next = nodeA.bind(first.attributeToWrite(), "s1");
        assertThat(next.context()).isNotSameAs(first.context());
        assertThat(registry.statistics("session").contexts()).as("the closed one is no longer tracked").isEqualTo(1);
    }

    @RepeatedTest(20)
    void requestsRacingEvictionAndReleaseNeverLeaveTwoOpenContextsForOneSession() throws Exception {
        String handle = nodeA.bind(null, "s1").attributeToWrite();
        long seed = System.nanoTime();
        System.out.println("requestsRacingEvictionAndReleaseNeverLeaveTwoOpenContextsForOneSession seed " + seed);
        java.util.Random random = new java.util.Random(seed);
        int binders = 4;
        Set<RendererSyncContext> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        List<Callable<Void>> all = new ArrayList<>();
        for (int t = 0; t < binders; t++) {
            all.add(() -> {
                while (!stop.get()) {
                    seen.add(nodeA.bind(handle, "s1").context());
                }
                return null;
            });
        }
        boolean evictFirst = random.nextBoolean();
        all.add(() -> {
            for (int i = 0; i < 2_000; i++) {
                if ((i % 2 == 0) == evictFirst) {
                    nodeA.evictIdle(System.nanoTime() + IDLE.toNanos() * 2); // everything counts as idle
                } else {
                    nodeA.release(handle);
                }
            }
            stop.set(true);
            return null;
        });
        Race.run(Duration.ofSeconds(60), all);
        RendererSyncContext last = nodeA.bind(handle, "s1").context();
        seen.add(last);
        assertThat(seen.stream().filter(c -> !c.isClosed()).toList())
                .as("open contexts among the %d the session was given", seen.size()).containsExactly(last);
        assertThat(registry.statistics("session").contexts()).as("tracked contexts of the session scope").isEqualTo(1);
    }

    @Test
    void invalidSettingsFailAtTheBoundary() {
        assertThatThrownBy(() -> new SessionContexts(registry, "session", "a@b", IDLE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'@'");
        assertThatThrownBy(() -> new SessionContexts(registry, "session", "a", Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("idleTimeout");
    }
}
