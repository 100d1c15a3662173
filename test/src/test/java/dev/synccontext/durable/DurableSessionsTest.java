package dev.synccontext.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.live.CloseReason;
import dev.synccontext.live.LiveChannel;
import dev.synccontext.live.LiveChannelGroup;
import dev.synccontext.registry.ShutdownDrain;
import dev.synccontext.spring.durable.HandOffMessage;
import dev.synccontext.spring.durable.InMemoryStateStore;
import dev.synccontext.spring.durable.NodeLease;
import dev.synccontext.spring.durable.Ownership;
import dev.synccontext.spring.durable.StateStore;
import dev.synccontext.spring.durable.session.Durable;
import dev.synccontext.spring.durable.session.DurableBeans;
import dev.synccontext.spring.durable.session.DurableContexts;
import dev.synccontext.spring.durable.session.DurableSettings;
import dev.synccontext.spring.durable.session.HandOffCause;
import dev.synccontext.spring.durable.WriteOutcome;
import dev.synccontext.spring.durable.session.SessionUnavailableException;
import dev.synccontext.test.ReadyTransport;
import dev.synccontext.test.SyncContextTestKit;
import dev.synccontext.test.cluster.Counter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Durable context-scoped state on the kit's virtual time: two "nodes" (a registry and a {@link DurableContexts}
 * each) on one {@link InMemoryStateStore}. What the scope does for a real bean (tell the layer of its creation and
 * of each call through its proxy) the nodes here do by hand.
 */
class DurableSessionsTest {

    private static final Duration TTL = Duration.ofSeconds(15);
    private static final Duration DEBOUNCE = Duration.ofMillis(200);
    private static final String SESSION = "session-key-1";

    private final SyncContextTestKit kit = SyncContextTestKit.create();
    private final InMemoryStateStore store = new InMemoryStateStore(kit.clock());
    private final JsonMapper mapper = JsonMapper.builder().build();

    /** A durable class the mapper cannot read back: no no-argument constructor. */
    @Durable
    public static class NoDefaultConstructor {
        private final int count;

        public NoDefaultConstructor(int count) {
            this.count = count;
        }

        public int getCount() {
            return count;
        }
    }

    /** A durable class with nothing Jackson sees. */
    @Durable
    public static class NoVisibleState {
        private int count;

        void increment() {
            count++;
        }
    }

    /** One node on the shared store. */
    private DurableNode node(String id, Duration debounce) {
        return node(id, debounce, store);
    }

    private DurableNode node(String id, Duration debounce, StateStore nodeStore) {
        return new DurableNode(kit, mapper, id, nodeStore,
                new DurableSettings(TTL, Duration.ofSeconds(2), debounce, Duration.ofMinutes(30)));
    }

    private int stored(String session) {
        return DurableNode.storedCount(store, mapper, session);
    }

    @Test
    void aBurstOfChangesIsOneSnapshotTakenWhenTheQueueRunsDry() {
        DurableNode a = node("node-a", Duration.ZERO); // no debounce: each snapshot taken is written
        CompletableFuture<Integer> first = a.increment(SESSION); // inline; no debounce: its checkpoint is queued now
        List<CompletableFuture<Integer>> burst = List.of(a.increment(SESSION), a.increment(SESSION));
        kit.runUntilIdle(); // the checkpoint steps back behind the two increments queued after it

        assertThat(first.join()).isEqualTo(1);
        assertThat(burst.get(1).join()).isEqualTo(3);
        assertThat(a.durable.counters().snapshotsWritten()).as("one snapshot for the burst").isEqualTo(1);
        assertThat(stored(SESSION)).as("taken after the last callback of the burst").isEqualTo(3);
    }

    @Test
    void aCallThroughADurableBeanLeavesItsContextIdleSoThatAPlainKitTestNeedsNothingMore() {
        DurableNode a = node("node-a", DEBOUNCE);
        CompletableFuture<Integer> first = a.increment(SESSION);
        assertThat(first).as("an idle context runs the call inline").isCompletedWithValue(1);
        assertThat(kit.executor().pending()).as("nothing queued behind it: no checkpoint yet").isZero();
        CompletableFuture<Integer> second = a.increment(SESSION);
        assertThat(second).as("so the next call runs inline too, without the test running the kit")
                .isCompletedWithValue(2);
        kit.verify(); // the kit's end-of-test check finds nothing left behind

        kit.advanceBy(DEBOUNCE); // the checkpoint is queued, runs and hands its snapshot to the writer
        assertThat(stored(SESSION)).as("the snapshot taken after the debounce").isEqualTo(2);
        assertThat(a.durable.counters().snapshotsWritten()).isEqualTo(1);
        kit.verify();
    }

    @Test
    void noSnapshotWithoutACallThroughADurableBean() {
        DurableNode a = node("node-a", DEBOUNCE);
        a.incrementNow(SESSION);
        kit.advanceBy(DEBOUNCE);
        long written = a.durable.counters().snapshotsWritten();

        a.contextOf(SESSION).invokeAsync(() -> { });
        kit.advanceBy(DEBOUNCE.multipliedBy(10));

        assertThat(a.durable.counters().snapshotsWritten()).as("a callback that touched no durable bean").isEqualTo(written);
        assertThat(a.durable.counters().skippedClean()).isZero();
    }

    @Test
    void aCheckpointWhoseBytesDidNotChangeIsSkipped() {
        DurableNode a = node("node-a", DEBOUNCE);
        RendererSyncContext context = oneStored(a);
        context.invokeAsync(() -> a.counter(context).getCount()); // a read: touched, unchanged
        kit.advanceBy(DEBOUNCE);

        assertThat(a.durable.counters().snapshotsWritten()).isEqualTo(1);
        assertThat(a.durable.counters().skippedClean()).as("equal bytes are not written").isEqualTo(1);
    }

    @Test
    void writesAreDebouncedToTheNewestSnapshot() {
        DurableNode a = node("node-a", DEBOUNCE);
        a.incrementNow(SESSION);
        kit.advanceBy(DEBOUNCE.dividedBy(2));
        a.incrementNow(SESSION);
        assertThat(store.read(SESSION)).as("nothing written before the debounce").isEmpty();

        kit.advanceBy(DEBOUNCE);

        assertThat(a.durable.counters().snapshotsWritten()).as("one snapshot for both, one write").isEqualTo(1);
        assertThat(stored(SESSION)).isEqualTo(2);
    }

    @Test
    void anotherNodeRestoresBeforeItsFirstCallbackAfterAGracefulStop() {
        DurableNode a = node("node-a", Duration.ofMinutes(1)); // nothing written before the stop
        for (int i = 1; i <= 5; i++) {
            assertThat(a.incrementNow(SESSION)).isEqualTo(i);
        }
        a.durable.close();
        DurableNode b = node("node-b", DEBOUNCE);

        assertThat(b.incrementNow(SESSION)).as("node b continues where node a stopped").isEqualTo(6);
        assertThat(b.durable.counters().restoreHits()).isEqualTo(1);
        assertThat(b.durable.counters().handOffs(HandOffCause.DEPLOY)).as("taken from a released record").isEqualTo(1);
        assertThat(b.durable.counters().leaseWaits()).as("nobody to wait for").isZero();
    }

    @Test
    void aGracefulStopWritesTheFinalSnapshotAndReleasesTheSession() {
        DurableNode a = node("node-a", Duration.ofMinutes(1));
        a.incrementNow(SESSION);
        a.incrementNow(SESSION);

        a.durable.close();

        assertThat(stored(SESSION)).as("the final snapshot").isEqualTo(2);
        NodeLease other = store.acquireNodeLease("node-c", TTL).orElseThrow();
        assertThat(store.acquire(SESSION, other, Duration.ofMinutes(1)))
                .as("released: another node takes it at once").isInstanceOf(Ownership.Acquired.class);
    }

    @Test
    void theShutdownDrainWritesTheFinalSnapshotAndReleasesBeforeTheLiveChannelsGoAway() throws Exception {
        DurableNode a = node("node-a", Duration.ofMinutes(1)); // nothing written before the drain
        a.incrementNow(SESSION);
        a.incrementNow(SESSION);
        a.contextOf(SESSION).post(() -> { }); // its drain waits on the kit: the context is busy, not idle
        CompletableFuture<Integer> queued = a.increment(SESSION); // accepted before the drain, not yet run
        LiveChannelGroup group = new LiveChannelGroup();
        List<String> atGoingAway = new ArrayList<>();
        LiveChannel board = LiveChannel.builder("board").executor(Runnable::run).group(group).build(() -> "snapshot");
        board.subscribe(new GoingAwayProbe(() -> {
            NodeLease other = store.acquireNodeLease("node-c", TTL).orElseThrow();
            atGoingAway.add("stored " + stored(SESSION) + ", "
                    + store.acquire(SESSION, other, Duration.ofMinutes(1)).getClass().getSimpleName());
        }));

        assertThat(queued).as("queued: the kit runs nothing until asked").isNotDone();

        new ShutdownDrain(a.registry, group, Duration.ofSeconds(10), 0).run(() -> { });

        assertThat(queued).as("acknowledged during the drain").isCompletedWithValue(3);
        assertThat(atGoingAway).as("what a tab reconnecting to another node finds when told to go away")
                .containsExactly("stored 3, Acquired");
        a.durable.close(); // the starter's later destroy: nothing left to write, only the node lease to end
        assertThat(a.durable.counters().rejected()).isZero();
    }

    @Test
    void aHandOffRequestDuringTheDrainIsAnsweredAfterTheCallbacksQueuedBeforeIt() throws Exception {
        DurableNode a = node("node-a", Duration.ofMinutes(1));
        a.incrementNow(SESSION);
        List<HandOffMessage> toB = new ArrayList<>();
        store.subscribe("node-b", toB::add);
        RendererSyncContext context = a.contextOf(SESSION);
        context.post(() -> { }); // its drain waits on the kit: the context is busy, not idle
        // Runs during the drain: node b asks for the session between two changes that are both answered.
        CompletableFuture<Integer> queued = context.invokeAsync(() -> {
            Counter counter = a.counter(context);
            counter.setCount(counter.getCount() + 1);
            store.publish("node-a", new HandOffMessage(HandOffMessage.Kind.REQUEST, SESSION, "node-b"));
            counter.setCount(counter.getCount() + 1);
            return counter.getCount();
        });

        assertThat(queued).as("queued: the kit runs nothing until asked").isNotDone();

        new ShutdownDrain(a.registry, new LiveChannelGroup(), Duration.ofSeconds(10), 0).run(() -> { });

        assertThat(queued).isCompletedWithValue(3);
        assertThat(stored(SESSION)).as("the final snapshot comes after the callback, not when the request came")
                .isEqualTo(3);
        assertThat(toB).as("answered once the session is released")
                .containsExactly(new HandOffMessage(HandOffMessage.Kind.RELEASED, SESSION, "node-a"));
    }

    /** A live transport that runs {@code onGoingAway} when the drain tells it to go away. */
    private static final class GoingAwayProbe extends ReadyTransport {

        private final Runnable onGoingAway;

        GoingAwayProbe(Runnable onGoingAway) {
            this.onGoingAway = onGoingAway;
        }

        @Override
        public void close(CloseReason reason) {
            if (reason == CloseReason.GOING_AWAY) {
                onGoingAway.run();
            }
        }
    }

    @Test
    void aReleaseWhileADebouncedWriteIsInFlightWritesTheFinalSnapshotBeforeReleasing() throws Exception {
        RiggedStore slow = new RiggedStore(store);
        DurableNode a = node("node-a", DEBOUNCE, slow);
        a.incrementNow(SESSION);
        a.writer.hold();
        kit.advanceBy(DEBOUNCE); // the debounced write of count 1 is handed to the writer
        slow.slowNextWrite = true;
        Thread writer = new Thread(a.writer::letGo, "writer");
        writer.start(); // a real writer thread: its write of count 1 is in flight
        assertThat(slow.inWrite.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(a.incrementNow(SESSION)).as("acknowledged").isEqualTo(2); // its snapshot is pending

        RendererSyncContext released = a.contextOf(SESSION);
        // A hand-off or deploy: the release hook, on the context, takes the final snapshot and flushes it;
        // finish() waits for the write.
        Thread context = a.releaseBehindTheWriteInFlight(released, "the final flush waits for the write in flight");
        slow.letWriteGo.countDown();
        writer.join(10_000);
        context.join(10_000);

        assertThat(a.durable.counters().rejected()).as("no write after the release").isZero();
        assertThat(stored(SESSION)).as("what the next owner restores: every acknowledged change").isEqualTo(2);
        DurableNode b = node("node-b", DEBOUNCE);
        assertThat(b.incrementNow(SESSION)).as("released after the final write: b takes it at once").isEqualTo(3);
    }

    @Test
    void aStaleOwnersWriteIsRefusedAndTheNewOwnersStateStands() {
        DurableNode a = node("node-a", DEBOUNCE);
        a.incrementNow(SESSION);
        RendererSyncContext before = a.contextOf(SESSION);
        kit.advanceBy(DEBOUNCE);
        a.writer.hold(); // node a pauses: its renewals and its next write wait
        a.incrementNow(SESSION);
        kit.advanceBy(TTL.plus(DEBOUNCE)); // a's lease expires in the store

        DurableNode b = node("node-b", DEBOUNCE);
        b.incrementNow(SESSION);
        assertThat(b.incrementNow(SESSION)).as("b restored a's last accepted snapshot").isEqualTo(3);
        kit.advanceBy(DEBOUNCE);
        a.writer.letGo(); // a wakes up and sends its write of count 2

        assertThat(a.durable.counters().rejected()).as("a's write is refused").isEqualTo(1);
        assertThat(a.durable.counters().rejected(WriteOutcome.STALE)).as("b's token replaced a's").isEqualTo(1);
        assertThat(stored(SESSION)).as("b's state stands").isEqualTo(3);
        kit.runUntilIdle();
        assertThat(before.isClosed()).as("a dropped its copy (released its context)").isTrue();
    }

    @Test
    void aNodePastItsLocalLeaseDeadlineRefusesDurableCallbacks() {
        DurableNode a = node("node-a", DEBOUNCE);
        a.incrementNow(SESSION);
        a.writer.hold(); // renewals never reach the store
        kit.advanceBy(TTL);

        CompletableFuture<Integer> refused = a.increment(SESSION);
        kit.runUntilIdle();

        assertThat(refused).isCompletedExceptionally();
        assertThatThrownBy(refused::join).hasCauseInstanceOf(SessionUnavailableException.class)
                .hasMessageContaining("node-a");
    }

    @Test
    void theOwnerHandsASessionOverOnRequest() {
        DurableNode a = node("node-a", DEBOUNCE);
        a.incrementNow(SESSION);
        a.incrementNow(SESSION);
        DurableNode b = node("node-b", DEBOUNCE);

        assertThat(b.incrementNow(SESSION)).as("b asked a, a wrote and released, b restored").isEqualTo(3);
        assertThat(b.durable.counters().handOffsRequested()).isEqualTo(1);
        assertThat(a.durable.counters().handOffsGiven()).isEqualTo(1);
        assertThat(b.durable.counters().handOffs(HandOffCause.NO_AFFINITY)).as("a live owner answered").isEqualTo(1);
        assertThat(b.durable.counters().leaseWaits()).as("one wait for a's lease").isEqualTo(1);
    }

    /** On {@code a}: 1 stored; the session's context. */
    private RendererSyncContext oneStored(DurableNode a) {
        a.incrementNow(SESSION);
        kit.advanceBy(DEBOUNCE); // 1 is stored
        return a.contextOf(SESSION);
    }

    /** On {@code a}: 1 stored, then 2 in memory only; the session's context, about to be released. */
    private RendererSyncContext oneStoredTwoInMemory(DurableNode a) {
        RendererSyncContext first = oneStored(a);
        a.incrementNow(SESSION); // 2: in memory only
        return first;
    }

    /** A new context of the session on {@code a} continues from 2 ({@code restored}: from where); 3 is stored. */
    private void assertSuccessorContinuesFromTwo(DurableNode a, String restored) {
        CompletableFuture<Integer> next = a.increment(SESSION); // a new context of the session on the same node
        kit.runUntilIdle();
        assertThat(next.join()).as(restored).isEqualTo(3);
        kit.advanceBy(DEBOUNCE);
        assertThat(stored(SESSION)).isEqualTo(3);
    }

    @Test
    void aSuccessorContextOnTheSameNodeWaitsForItsPredecessorsFinalWriteRetriedAfterAStoreFailure() {
        RiggedStore flaky = new RiggedStore(store);
        DurableNode a = node("node-a", DEBOUNCE, flaky);
        RendererSyncContext first = oneStoredTwoInMemory(a);

        flaky.down = true; // the final write of the released context fails and is retried after a backoff
        a.registry.release(first);
        kit.runUntilIdle();
        assertThat(first.isClosed()).isTrue();
        flaky.down = false; // back before the retry: the successor's acquire and restore succeed at once

        assertSuccessorContinuesFromTwo(a,
                "restored from the predecessor's final write (2), not the older snapshot (1)");
    }

    @Test
    void aHandOffAnswerTheStoreDidNotTakeLeavesASuccessorWaitingForThePredecessorsRetriedFinalWrite() {
        RiggedStore flaky = new RiggedStore(store);
        DurableNode a = node("node-a", DEBOUNCE, flaky);
        RendererSyncContext first = oneStoredTwoInMemory(a);

        flaky.down = true; // the final write is retried after a backoff; the RELEASED answer to node b fails
        store.publish("node-a", new HandOffMessage(HandOffMessage.Kind.REQUEST, SESSION, "node-b"));
        kit.runUntilIdle();
        assertThat(first.isClosed()).as("node b's request released the context").isTrue();
        flaky.down = false; // back before the retry

        assertSuccessorContinuesFromTwo(a,
                "the successor waited for the predecessor's final write (2), then restored it");
        assertThat(a.durable.counters().rejected()).as("the successor kept the session").isZero();
    }

    @Test
    void aCheckpointDuringAFailingWriteLeavesOneRetryArmedNotTwo() throws Exception {
        RiggedStore flaky = new RiggedStore(store);
        RiggedStore slow = new RiggedStore(flaky);
        DurableNode a = node("node-a", DEBOUNCE, slow);
        a.incrementNow(SESSION);
        a.writer.hold();
        kit.advanceBy(DEBOUNCE); // the write of count 1 is handed to the writer
        int timers = kit.clock().pendingTimers(); // the node lease's renewal only
        flaky.down = true;
        slow.slowNextWrite = true;
        Thread writer = new Thread(a.writer::letGo, "writer");
        writer.start(); // a real writer thread: its write of count 1 is in flight, and fails once let go
        assertThat(slow.inWrite.await(10, TimeUnit.SECONDS)).isTrue();
        a.writer.hold(); // the writer thread runs what is queued now after the write in flight
        a.incrementNow(SESSION);
        kit.advanceBy(DEBOUNCE); // the write of count 2 is queued behind the failing one

        slow.letWriteGo.countDown();
        writer.join(10_000);

        assertThat(a.durable.counters().writeRetries()).as("both writes failed").isEqualTo(2);
        assertThat(kit.clock().pendingTimers() - timers).as("retry timers armed for the session").isEqualTo(1);
        flaky.down = false;
        a.writer.letGo();
        kit.advanceBy(Duration.ofSeconds(2)); // past the backoff
        assertThat(stored(SESSION)).as("the retry wrote the newest snapshot").isEqualTo(2);
        assertThat(kit.clock().pendingTimers() - timers).as("no retry left armed").isZero();
    }

    @Test
    void aSessionThatEndedIsDeletedNotWritten() {
        DurableNode a = node("node-a", DEBOUNCE);
        RendererSyncContext context = oneStored(a);

        a.durable.ended(SESSION, context);
        a.registry.release(context);
        kit.runUntilIdle();

        assertThat(store.read(SESSION)).isEmpty();
    }

    @Test
    void aDurableClassWithoutADefaultConstructorIsRefusedAtStartupNamingTheBean() {
        assertThatThrownBy(() -> DurableBeans.typeOf("cart", NoDefaultConstructor.class, mapper))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("'cart'")
                .hasMessageContaining("no-argument constructor");
    }

    @Test
    void aDurableClassWithNoJacksonVisibleStateIsRefusedAtStartup() {
        assertThatThrownBy(() -> DurableBeans.typeOf("wizard", NoVisibleState.class, mapper))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("'wizard'")
                .hasMessageContaining("no Jackson-visible state");
    }
}
