package dev.synccontext.many;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.SyncContextDefaults;
import dev.synccontext.registry.Broadcast;
import dev.synccontext.registry.ContextTemplate;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.test.SyncContextTestKit;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Broadcast, look-up without creation, idle expiry of keyed contexts and delayed posts, on the kit. */
class RegistryManyContextsTest {

    private final SyncContextTestKit kit = SyncContextTestKit.create();
    private final SyncContextRegistry registry = new SyncContextRegistry(
            new ContextTemplate(kit.executor(), "deterministic", SyncContextDefaults.MAX_BATCH,
                    SyncContextDefaults.MAX_QUEUE_DEPTH, Duration.ZERO, Duration.ofSeconds(10), null),
            null, List.of(builder -> builder.queuedCallbackDecorator(kit.decorator())
                    .unhandledExceptionHandler(kit.unhandledExceptionHandler())), kit.clock());
    private final Map<RendererSyncContext, AtomicInteger> received = new ConcurrentHashMap<>();
    private final Runnable count = () -> received.computeIfAbsent(RendererSyncContext.current().orElseThrow(),
            context -> new AtomicInteger()).incrementAndGet();

    @AfterEach
    void verifyKit() {
        registry.close();
        kit.verify();
    }

    @Test
    void aBroadcastReachesEveryOpenContextOnceAndNeverRunsOnTheCallingThread() {
        List<RendererSyncContext> sessions = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            sessions.add(registry.create("session"));
        }
        RendererSyncContext room = registry.forKey("room-1");
        Broadcast result = registry.broadcast(count);
        assertThat(received).describedAs("posted, so nothing ran yet").isEmpty();
        kit.runUntilIdle();
        assertThat(result).isEqualTo(new Broadcast(6, 0));
        assertThat(received).containsOnlyKeys(concat(sessions, room)).allSatisfy((context, n) -> assertThat(n).hasValue(1));
    }

    @Test
    void aBroadcastNeverThrowsForAContextThatRefusesAndCountsTheRefusal() {
        RendererSyncContext open = registry.create("session");
        RendererSyncContext closed = registry.create("session");
        closed.close();
        Broadcast[] result = new Broadcast[1];
        assertThatCode(() -> result[0] = registry.broadcast(count)).doesNotThrowAnyException();
        kit.runUntilIdle();
        assertThat(result[0]).isEqualTo(new Broadcast(1, 1));
        assertThat(registry.refusedCallbacks()).isEqualTo(1);
        assertThat(received).containsOnlyKeys(open);
    }

    @Test
    void aBroadcastToAScopeOrToKeysReachesOnlyThose() {
        RendererSyncContext session = registry.create("session");
        RendererSyncContext room1 = registry.forKey("room-1");
        RendererSyncContext room2 = registry.forKey("room-2");
        RendererSyncContext lobby = registry.forKey("lobby");
        assertThat(registry.broadcastToKeys(key -> key.startsWith("room-"), count)).isEqualTo(new Broadcast(2, 0));
        assertThat(registry.broadcast("session", count)).isEqualTo(new Broadcast(1, 0));
        assertThat(registry.broadcast("no-such-scope", count)).isEqualTo(new Broadcast(0, 0));
        assertThat(registry.broadcast(context -> context == lobby, count)).isEqualTo(new Broadcast(1, 0));
        kit.runUntilIdle();
        assertThat(received).containsOnlyKeys(session, room1, room2, lobby);
    }

    @Test
    void findNeverCreatesAContext() {
        assertThat(registry.find("room-typo")).isEmpty();
        assertThat(registry.contexts()).describedAs("find made nothing").isEmpty();
        RendererSyncContext room = registry.forKey("room-1");
        assertThat(registry.find("room-1")).containsSame(room);
    }

    @Test
    void aKeyedContextIdleForItsTimeoutIsReleasedOnTheRegistrysClock() {
        RendererSyncContext room = registry.forKey("room-1", Duration.ofMinutes(5));
        room.invokeAsync(() -> { });
        kit.advanceBy(Duration.ofMinutes(5));
        assertThat(room.isClosed()).describedAs("used during the first period: kept").isFalse();
        kit.advanceBy(Duration.ofMinutes(5));
        assertThat(room.isClosed()).describedAs("idle for a whole period: released").isTrue();
        assertThat(registry.find("room-1")).isEmpty();
        assertThat(registry.contexts()).doesNotContain(room);
        assertThat(registry.forKey("room-1")).describedAs("forKey makes a new one").isNotSameAs(room);
    }

    @Test
    void aKeyedContextInUseOrAskedForNeverExpires() {
        RendererSyncContext room = registry.forKey("room-1", Duration.ofMinutes(1));
        for (int minute = 0; minute < 10; minute++) {
            if (minute % 2 == 0) {
                room.post(() -> { });
            } else {
                assertThat(registry.forKey("room-1")).isSameAs(room);
            }
            kit.advanceBy(Duration.ofSeconds(59));
        }
        assertThat(room.isClosed()).isFalse();
        kit.advanceBy(Duration.ofMinutes(2));
        assertThat(room.isClosed()).isTrue();
    }

    @Test
    void aKeyedContextGivenWorkJustBeforeItsTimeoutIsKept() {
        RendererSyncContext room = registry.forKey("room-1", Duration.ofMinutes(1));
        kit.advanceBy(Duration.ofSeconds(59));
        room.post(() -> { });
        kit.advanceBy(Duration.ofSeconds(1)); // the look comes a moment after the post
        assertThat(room.isClosed()).isFalse();
        kit.advanceBy(Duration.ofMinutes(3));
        assertThat(room.isClosed()).isTrue();
    }

    @Test
    void aKeyedContextWithoutATimeoutNeverExpires() {
        RendererSyncContext room = registry.forKey("room-1");
        kit.advanceBy(Duration.ofDays(365));
        assertThat(room.isClosed()).isFalse();
    }

    @Test
    void aDelayedPostToAContextClosedMeanwhileIsCountedNotThrownOnTheTimer() {
        RendererSyncContext session = registry.create("session");
        registry.postAfter(session, Duration.ofSeconds(30), count);
        session.close();
        assertThatCode(() -> kit.advanceBy(Duration.ofSeconds(30))).doesNotThrowAnyException();
        assertThat(registry.refusedCallbacks()).isEqualTo(1);
        assertThat(received).isEmpty();
        assertThat(kit.takeFailures()).describedAs("nothing thrown on the timer").isEmpty();
    }

    @Test
    void aDelayedPostRunsWhenDueOnVirtualTime() {
        RendererSyncContext session = registry.create("session");
        registry.postAfter(session, Duration.ofSeconds(30), count);
        kit.advanceBy(Duration.ofSeconds(29));
        assertThat(received).isEmpty();
        kit.advanceBy(Duration.ofSeconds(1));
        assertThat(received).containsOnlyKeys(session);
    }

    private static List<RendererSyncContext> concat(List<RendererSyncContext> list, RendererSyncContext one) {
        List<RendererSyncContext> all = new ArrayList<>(list);
        all.add(one);
        return all;
    }
}
