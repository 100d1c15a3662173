package dev.synccontext.room;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.synccontext.Occupier;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.live.LiveChannel;
import dev.synccontext.live.OverflowPolicy;
import dev.synccontext.registry.Broadcast;
import dev.synccontext.registry.ContextTemplate;
import dev.synccontext.registry.SyncContextRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RoomTest {

    private final SyncContextRegistry registry = new SyncContextRegistry(
            ContextTemplate.defaults(RendererSyncContext.defaultExecutor(), "default"));

    @AfterEach
    void close() {
        registry.close();
    }

    private Rooms<List<Integer>, Integer> rooms(Delivery delivery) {
        return Rooms.<List<Integer>, Integer>builder(registry, "auction", id -> new ArrayList<>()).delivery(delivery)
                .build();
    }

    /** Publishes 1..n on the room's context, each appended to its state first. */
    private static void publish(Room<List<Integer>, Integer> room, int n) {
        room.context().invokeAsync(() -> {
            for (int i = 1; i <= n; i++) {
                room.state().add(i);
                room.publish(i);
            }
        }).join();
    }

    /** Waits until everything queued on {@code member} before this call has run (FIFO). */
    private static void settle(RendererSyncContext member) {
        member.invokeAsync(() -> { }).join();
    }

    @Test
    void findNeverCreatesARoomOrItsContext() {
        Rooms<List<Integer>, Integer> rooms = rooms(Delivery.LOG);
        assertThat(rooms.find("42")).isEmpty();
        assertThat(registry.find("auction:42")).describedAs("find made a keyed context").isEmpty();
        Room<List<Integer>, Integer> room = rooms.open("42");
        assertThat(room.key()).isEqualTo("auction:42");
        assertThat(registry.find("auction:42")).contains(room.context());
        assertThat(rooms.find("42")).contains(room);
        assertThat(rooms.open("42")).describedAs("open again finds the same room").isSameAs(room);
        assertThat(rooms.find("43")).isEmpty();
    }

    @Test
    void theStateAnswersOnlyOnTheRoomsContext() {
        Room<List<Integer>, Integer> room = rooms(Delivery.LOG).open("1");
        assertThatThrownBy(room::state).isInstanceOf(IllegalStateException.class).hasMessageContaining("auction:1");
        assertThat(room.ask(state -> state.add(7)).join()).isTrue();
        assertThat(room.ask(List::size).join()).isEqualTo(1);
    }

    @Test
    void logDeliversEveryEventInOrderToEveryMember() {
        Room<List<Integer>, Integer> room = rooms(Delivery.LOG).open("1");
        List<RendererSyncContext> members = IntStream.range(0, 5).mapToObj(i -> registry.create("session")).toList();
        List<List<Integer>> seen = new ArrayList<>();
        for (RendererSyncContext member : members) {
            List<Integer> mine = new CopyOnWriteArrayList<>();
            seen.add(mine);
            room.join(member, event -> {
                member.assertAccess(); // the receiver runs on the member's context
                mine.add(event);
            });
        }
        publish(room, 1000);
        members.forEach(RoomTest::settle);
        List<Integer> all = IntStream.rangeClosed(1, 1000).boxed().toList();
        assertThat(seen).allSatisfy(mine -> assertThat(mine).describedAs("every event, in order, no gap").isEqualTo(all));
    }

    @Test
    void convergingHandsASlowMemberOnlyTheLatestAndQueuesOneCallbackAtMost() throws Exception {
        Room<List<Integer>, Integer> room = rooms(Delivery.CONVERGING).open("1");
        List<Integer> seen = publishToASlowMember(room);
        assertThat(seen).describedAs("a slow member converges on the latest").containsExactly(500);
    }

    @Test
    void convergingByKeyHandsASlowMemberTheLatestOfEachKeyInPublicationOrder() throws Exception {
        Rooms<List<Integer>, Integer> rooms = Rooms.<List<Integer>, Integer>builder(registry, "auction",
                id -> new ArrayList<>()).delivery(Delivery.CONVERGING).coalesceBy(price -> price % 3).build();
        Room<List<Integer>, Integer> room = rooms.open("1");
        List<Integer> seen = publishToASlowMember(room); // three keys (i % 3), interleaved; the last of each: 498, 499, 500
        assertThat(seen).describedAs("the latest of each key, in publication order").containsExactly(498, 499, 500);
    }

    @Test
    void coalescingByKeyNeedsConvergingDelivery() {
        assertThatThrownBy(() -> Rooms.<List<Integer>, Integer>builder(registry, "auction", id -> new ArrayList<>())
                .coalesceBy(price -> price % 3).build()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("CONVERGING").hasMessageContaining("auction");
    }

    @Test
    void closingTheRoomsRemovesTheirContextsEndsMembershipsAndLeavesTheRegistryHoldingNothing() {
        Rooms<List<Integer>, Integer> rooms = rooms(Delivery.LOG);
        Room<List<Integer>, Integer> room = rooms.open("1");
        Membership membership = room.join(registry.create("session"), e -> { });
        rooms.close();
        assertThat(room.isClosed()).describedAs("the room's context").isTrue();
        assertThat(registry.find("auction:1")).isEmpty();
        assertThat(membership.isActive()).isFalse();
        assertThat(rooms.find("1")).isEmpty();
        assertThatThrownBy(() -> rooms.open("2")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("auction:2");
        rooms.close(); // idempotent

        // The registry keeps no reference to closed rooms (their release hook): they can be collected.
        java.lang.ref.WeakReference<Rooms<List<Integer>, Integer>> closed = new java.lang.ref.WeakReference<>(
                rooms(Delivery.LOG));
        closed.get().open("3").join(registry.create("session"), e -> { });
        closed.get().close();
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            System.gc();
            return closed.get() == null;
        });
    }

    @Test
    void aReleasedMemberLeavesItsRooms() {
        Rooms<List<Integer>, Integer> rooms = rooms(Delivery.LOG);
        Room<List<Integer>, Integer> one = rooms.open("1");
        Room<List<Integer>, Integer> two = rooms.open("2");
        RendererSyncContext member = registry.create("session");
        Membership a = one.join(member, e -> { });
        Membership b = two.join(member, e -> { });
        assertThat(rooms.memberships(member)).containsExactlyInAnyOrder(a, b);
        registry.release(member); // the session ended
        assertThat(a.isActive()).isFalse();
        assertThat(b.isActive()).isFalse();
        assertThat(one.memberCount()).isZero();
        assertThat(two.memberCount()).isZero();
        assertThat(rooms.memberships(member)).isEmpty();
        assertThatThrownBy(() -> one.join(member, e -> { })).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(member.name());
    }

    @Test
    void aMemberClosedWithoutTheRegistryIsCountedAndLeavesNeverThrowing() {
        Rooms<List<Integer>, Integer> rooms = rooms(Delivery.LOG);
        Room<List<Integer>, Integer> room = rooms.open("1");
        RendererSyncContext gone = registry.create("session");
        RendererSyncContext stays = registry.create("session");
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Membership goneMembership = room.join(gone, e -> { });
        room.join(stays, seen::add);
        gone.close();
        long refusedBefore = registry.refusedCallbacks();
        Broadcast result = room.context().invokeAsync(() -> room.publish(1)).join();
        assertThat(result).isEqualTo(new Broadcast(1, 1));
        assertThat(registry.refusedCallbacks() - refusedBefore).isEqualTo(1);
        assertThat(rooms.refusedDeliveries()).isEqualTo(1);
        assertThat(goneMembership.isActive()).describedAs("a refusal ends the membership (no gap in a log)").isFalse();
        publish(room, 2);
        settle(stays);
        assertThat(seen).containsExactly(1, 1, 2);
        assertThat(rooms.refusedDeliveries()).describedAs("a member that left is not tried again").isEqualTo(1);
    }

    @Test
    void leavingStopsEventsAlreadyQueued() throws Exception {
        Room<List<Integer>, Integer> room = rooms(Delivery.LOG).open("1");
        RendererSyncContext member = registry.create("session");
        List<Integer> seen = new CopyOnWriteArrayList<>();
        Membership membership = room.join(member, seen::add);
        CountDownLatch release = holdBusy(member);
        publish(room, 3); // queued behind the busy callback
        membership.leave();
        release.countDown();
        settle(member);
        assertThat(seen).isEmpty();
        assertThat(room.memberCount()).isZero();
    }

    @Test
    void aChannelMemberGetsTheRoomsEventsOnItsOwnStream() {
        Room<List<Integer>, Integer> room = rooms(Delivery.LOG).open("1");
        RendererSyncContext session = registry.create("session");
        LiveChannel channel = LiveChannel.builder("session-channel").policy(OverflowPolicy.DISCONNECT)
                .bufferCapacity(2000).executor(Runnable::run).build(() -> "snapshot");
        ListTransport tab = new ListTransport();
        channel.subscribe(tab);
        room.join(session, channel, "bid", e -> "bid " + e);
        publish(room, 100);
        assertThat(tab.data("bid")).isEqualTo(IntStream.rangeClosed(1, 100).mapToObj(i -> "bid " + i).toList());
        channel.close();
        Broadcast after = room.context().invokeAsync(() -> room.publish(101)).join();
        assertThat(after.refused()).describedAs("a closed channel refuses; counted, not thrown").isEqualTo(1);
        assertThat(room.memberCount()).isZero();
    }

    @Test
    void aConvergingChannelMemberGetsTheRoomsKeyOrItsEventsKeyForTheChannelToCoalesce() {
        Room<List<Integer>, Integer> perRoom = rooms(Delivery.CONVERGING).open("1");
        Room<List<Integer>, Integer> perKey = Rooms.<List<Integer>, Integer>builder(registry, "lots",
                id -> new ArrayList<>()).delivery(Delivery.CONVERGING).coalesceBy(price -> price % 2).build().open("1");
        RendererSyncContext session = registry.create("session");
        LiveChannel channel = LiveChannel.builder("session-channel").policy(OverflowPolicy.COALESCE_BY_KEY)
                .bufferCapacity(100).executor(Runnable::run).build(() -> "snapshot");
        ListTransport tab = new ListTransport();
        channel.subscribe(tab);
        perRoom.join(session, channel, "price", e -> e);
        perKey.join(session, channel, "lot", e -> e);
        publish(perRoom, 2);
        publish(perKey, 2);
        assertThat(tab.written.stream().filter(m -> !m.snapshot()).map(m -> m.event() + " " + m.key()).toList())
                .containsExactly("price auction:1", "price auction:1", "lot lots:1:1", "lot lots:1:0");
        channel.close();
    }

        @Test
    void anIdleRoomExpiresAndItsMembershipsEnd() {
        Rooms<List<Integer>, Integer> rooms = Rooms.<List<Integer>, Integer>builder(registry, "auction",
                id -> new ArrayList<>()).idleTimeout(Duration.ofMillis(50)).build();
        Room<List<Integer>, Integer> room = rooms.open("1");
        Membership membership = room.join(registry.create("session"), e -> { });
        await().atMost(Duration.ofSeconds(10)).until(room::isClosed);
        assertThat(rooms.find("1")).isEmpty();
        await().atMost(Duration.ofSeconds(10)).until(() -> !membership.isActive());
        Room<List<Integer>, Integer> again = rooms.open("1");
        assertThat(again).describedAs("open after expiry makes a new room").isNotSameAs(room);
        assertThat(again.isClosed()).isFalse();
    }

    @Test
    void publishingOffTheRoomsContextFailsNamingIt() {
        Room<List<Integer>, Integer> room = rooms(Delivery.LOG).open("1");
        assertThatThrownBy(() -> room.publish(1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("auction:1");
    }

    @Test
    void aRoomsNameHoldsNoColon() {
        assertThatThrownBy(() -> Rooms.builder(registry, "a:b", id -> id)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a:b");
    }

    /**
     * Joins a new member to {@code room} and holds it busy while the room's context publishes 1 to 500; checks
     * that the member never had more than one room callback queued at once, then lets it go and returns what it saw.
     */
    private List<Integer> publishToASlowMember(Room<List<Integer>, Integer> room) throws InterruptedException {
        RendererSyncContext slow = registry.create("session");
        List<Integer> seen = new CopyOnWriteArrayList<>();
        room.join(slow, seen::add);
        CountDownLatch release = holdBusy(slow);
        int[] depths = new int[1];
        room.context().invokeAsync(() -> {
            for (int i = 1; i <= 500; i++) {
                room.publish(i);
                depths[0] = Math.max(depths[0], slow.queueDepth());
            }
        }).join();
        assertThat(depths[0]).describedAs("room callbacks queued on the slow member at once").isEqualTo(1);
        release.countDown();
        settle(slow);
        return seen;
    }

    /** Runs a callback on {@code member} that blocks until the returned latch is counted down; returns once it runs. */
    private static CountDownLatch holdBusy(RendererSyncContext member) throws InterruptedException {
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        member.post(() -> {
            busy.countDown();
            Occupier.awaitUninterruptibly(release);
        });
        busy.await();
        return release;
    }
}
