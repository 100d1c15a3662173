package dev.synccontext.room;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.registry.Broadcast;
import dev.synccontext.registry.ContextTemplate;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.testing.StressSeed;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A room with 10,000 session members publishes one event while another thread ends a third of the sessions
 * (released by the registry, closed directly, or force-closed with {@code closeNow()}): the fan-out never throws,
 * every session open throughout gets the event exactly once, each refusal is counted (by the room and the
 * registry) and ends that membership, and a second event reaches exactly the sessions still open. More rounds:
 * {@code -Dstress.rounds=N}.
 */
class RoomFanOutStressTest {

    private static final int SESSIONS = 10_000;
    /** One round in the fast tier (10,000 sessions made and ended take seconds on a shared machine). */
    private static final int ROUNDS = Integer.getInteger("stress.rounds", 1);

    @Test
    void aFanOutWhileSessionsEndReachesEveryLiveOneOnceAndCountsEachRefusal() throws Exception {
        long seed = StressSeed.announce(RoomFanOutStressTest.class);
        Random random = new Random(seed);
        for (int round = 0; round < ROUNDS; round++) {
            runRound(random.nextLong(), "seed " + seed + ", round " + round + ": ");
        }
    }

    private static void runRound(long seed, String where) throws Exception {
        SyncContextRegistry registry = new SyncContextRegistry(
                ContextTemplate.defaults(RendererSyncContext.defaultExecutor(), "default"));
        try {
            Rooms<int[], String> rooms = Rooms.<int[], String>builder(registry, "board", id -> new int[1]).build();
            Room<int[], String> room = rooms.open("main");
            List<RendererSyncContext> sessions = new ArrayList<>();
            Map<RendererSyncContext, List<String>> received = new ConcurrentHashMap<>();
            for (int i = 0; i < SESSIONS; i++) {
                RendererSyncContext session = registry.create("session");
                sessions.add(session);
                List<String> mine = Collections.synchronizedList(new ArrayList<>());
                received.put(session, mine);
                room.join(session, mine::add);
            }
            List<RendererSyncContext> doomed = new ArrayList<>(sessions);
            Collections.shuffle(doomed, new Random(seed));
            doomed = List.copyOf(doomed.subList(0, SESSIONS / 3));

            CountDownLatch start = new CountDownLatch(1);
            AtomicReference<Throwable> closerFailed = new AtomicReference<>();
            AtomicInteger handedBack = new AtomicInteger();
            List<RendererSyncContext> released = Collections.synchronizedList(new ArrayList<>());
            List<RendererSyncContext> ending = doomed;
            Thread closer = new Thread(() -> {
                try {
                    start.await();
                    int kind = 0;
                    for (RendererSyncContext session : ending) {
                        switch (kind++ % 3) {
                            case 0 -> {
                                released.add(session);
                                registry.release(session);
                            }
                            case 1 -> session.close();
                            default -> handedBack.addAndGet(session.closeNow().size());
                        }
                    }
                } catch (Throwable t) {
                    closerFailed.set(t);
                }
            }, "closer");
            closer.start();
            long refusedBefore = registry.refusedCallbacks();
            Broadcast first = room.context().invokeAsync(() -> {
                start.countDown();
                return room.publish("first");
            }).join();
            closer.join();
            assertThat(closerFailed.get()).isNull();
            Broadcast second = room.context().invokeAsync(() -> room.publish("second")).join();
            for (RendererSyncContext session : sessions) {
                if (!session.isClosed()) {
                    session.close();
                }
                assertThat(session.awaitTermination(Duration.ofSeconds(30))).isTrue();
            }

            List<RendererSyncContext> survivors = new ArrayList<>(sessions);
            survivors.removeAll(doomed);
            for (RendererSyncContext open : survivors) {
                assertThat(received.get(open)).describedAs(where + "%s, open throughout", open.name())
                        .containsExactly("first", "second");
            }
            for (RendererSyncContext ended : doomed) {
                assertThat(received.get(ended)).describedAs(where + "%s ended: never the second event", ended.name())
                        .doesNotContain("second").hasSizeLessThanOrEqualTo(1);
            }
            int ranFirst = (int) received.values().stream().filter(l -> l.contains("first")).count();
            assertThat(first.attempted()).describedAs(where + "each member tried once at most (a released one left"
                    + " before)").isBetween(survivors.size(), SESSIONS);
            // A session released by the registry leaves the room at once; an event queued on it before is dropped
            // there unread, so delivered = ran + handed back by closeNow + queued on a session released meanwhile.
            long releasedWithoutIt = released.stream().filter(s -> received.get(s).isEmpty()).count();
            assertThat((long) first.delivered() - ranFirst - handedBack.get())
                    .describedAs(where + "delivered, neither ran nor handed back: only on released sessions")
                    .isBetween(0L, releasedWithoutIt);
            assertThat(second.delivered()).describedAs(where + "the second event: the sessions still open")
                    .isEqualTo(survivors.size());
            assertThat(registry.refusedCallbacks() - refusedBefore).describedAs(where + "each refusal counted")
                    .isEqualTo(first.refused() + second.refused());
            assertThat(rooms.refusedDeliveries()).isEqualTo(first.refused() + second.refused());
            assertThat(room.memberCount()).describedAs(where + "the ended sessions left").isEqualTo(survivors.size());
            System.out.printf("round: first delivered %d (ran %d, handed back %d), refused %d; second delivered %d,"
                    + " refused %d%n", first.delivered(), ranFirst, handedBack.get(), first.refused(),
                    second.delivered(), second.refused());
        } finally {
            registry.close();
        }
    }
}
