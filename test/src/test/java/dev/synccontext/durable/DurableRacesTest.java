package dev.synccontext.durable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.durable.InMemoryStateStore;
import dev.synccontext.spring.durable.StateStore;
import dev.synccontext.spring.durable.WriteOutcome;
import dev.synccontext.spring.durable.session.DurableSettings;
import dev.synccontext.spring.durable.session.HandOffCause;
import dev.synccontext.test.SyncContextTestKit;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * Races between a session's store writes and the steps around them (a hand-off request, the session's end, its
 * reacquire after a lapsed lease), each set up in one order on the kit: what the asking node learns and when, and
 * that no write is refused for a step of the session's own node.
 */
class DurableRacesTest {

    private static final Duration TTL = Duration.ofSeconds(15);
    private static final Duration DEBOUNCE = Duration.ofMillis(200);
    private static final Duration HAND_OFF_TIMEOUT = Duration.ofSeconds(2);
    private static final String SESSION = "session-key-1";

    private final SyncContextTestKit kit = SyncContextTestKit.create();
    private final InMemoryStateStore store = new InMemoryStateStore(kit.clock());
    private final JsonMapper mapper = JsonMapper.builder().build();

    /** One node on the shared store (through {@code nodeStore}). */
    private DurableNode node(String id, StateStore nodeStore) {
        return new DurableNode(kit, mapper, id, nodeStore,
                new DurableSettings(TTL, HAND_OFF_TIMEOUT, DEBOUNCE, Duration.ofMinutes(30)));
    }

    private int stored(String session) {
        return DurableNode.storedCount(store, mapper, session);
    }

    // A hand-off request that arrives after the last callback ran.

    @Test
    void aRequestAfterTheLastCallbackRanIsAnsweredWhenTheRetriedReleaseSettlesTheSessionNotAtTheAskersNextPoll() {
        RiggedStore rigged = new RiggedStore(store);
        DurableNode a = node("node-a", rigged);
        a.incrementNow(SESSION);
        kit.advanceBy(DEBOUNCE); // 1 is stored
        RendererSyncContext first = a.contextOf(SESSION);
        rigged.releaseDown = true;
        a.registry.release(first); // an idle eviction, say: the last callback runs, its release fails
        kit.runUntilIdle();
        assertThat(first.isClosed()).isTrue();
        rigged.releaseDown = false; // back: the release is retried after its backoff (the debounce)
        Duration asked = kit.currentTime();

        DurableNode b = node("node-b", store);
        CompletableFuture<Integer> taken = b.increment(SESSION); // asks node a, whose last callback ran already
        kit.runUntilIdle();

        assertThat(taken.join()).as("b restored a's final snapshot").isEqualTo(2);
        assertThat(kit.currentTime().minus(asked)).as("answered when a's retried release settled the session,"
                + " not at b's poll a fifth of the hand-off timeout later").isEqualTo(DEBOUNCE);
        assertThat(b.durable.counters().handOffs(HandOffCause.NO_AFFINITY)).as("a live owner answered").isEqualTo(1);
        assertThat(a.durable.counters().handOffsGiven()).isEqualTo(1);
        assertThat(b.durable.handOffWaits()).isZero();
    }

    // A session that ends with a debounced write not yet written.

    @Test
    void aSessionThatEndsWithADebouncedWriteQueuedIsDeletedAndTheWriteIsNeitherSentNorRefused() {
        DurableNode a = node("node-a", store);
        a.incrementNow(SESSION);
        kit.advanceBy(DEBOUNCE); // 1 is stored
        a.incrementNow(SESSION);
        a.writer.hold();
        kit.advanceBy(DEBOUNCE); // the snapshot of 2 is handed to the writer, which holds it
        RendererSyncContext context = a.contextOf(SESSION);

        a.durable.ended(SESSION, context); // the HTTP session ended
        a.registry.release(context);
        kit.runUntilIdle(); // the last callback deletes the record
        a.writer.letGo(); // the debounced write's turn comes after the delete

        assertThat(a.durable.counters().rejected()).as("no fencing refusal for the node's own delete").isZero();
        assertThat(store.read(SESSION)).as("the ended session left nothing").isEmpty();
        assertThat(store.sessionCount()).isZero();
    }

    @Test
    void aSessionThatEndsWithADebouncedWriteInFlightIsDeletedAfterItAndTheWriteIsNotRefused() throws Exception {
        RiggedStore rigged = new RiggedStore(store);
        DurableNode a = node("node-a", rigged);
        a.incrementNow(SESSION);
        a.writer.hold();
        kit.advanceBy(DEBOUNCE); // the debounced write of 1 is handed to the writer
        rigged.slowNextWrite = true;
        Thread writer = new Thread(a.writer::letGo, "writer");
        writer.start(); // a real writer thread: its write of 1 is in flight
        assertThat(rigged.inWrite.await(10, TimeUnit.SECONDS)).isTrue();

        RendererSyncContext ending = a.contextOf(SESSION);
        a.durable.ended(SESSION, ending);
        // The last callback deletes; the delete waits for the write in flight.
        Thread context = a.releaseBehindTheWriteInFlight(ending, "the delete waits for the write in flight");
        rigged.letWriteGo.countDown();
        writer.join(10_000);
        context.join(10_000);

        assertThat(a.durable.counters().rejected()).as("the write landed before the delete").isZero();
        assertThat(a.durable.counters().snapshotsWritten()).isEqualTo(1);
        assertThat(store.read(SESSION)).as("then the delete removed it").isEmpty();
    }

    // A debounced write sent under the token the session's reacquire replaced.

    /** Node {@code a}'s lease ends and it takes a new one at its next renewal (a store restart, say). */
    private void lapseAndRenew(RiggedStore rigged) {
        rigged.lapseNextRenewal = true;
        kit.advanceBy(TTL.dividedBy(3)); // the renewal's timer fires
    }

    /** Node {@code a} on {@code rigged}, with 1 stored and the snapshot of 2 held in its writer, not yet sent. */
    private DurableNode writingTwo(RiggedStore rigged) {
        DurableNode a = node("node-a", rigged);
        a.incrementNow(SESSION);
        kit.advanceBy(DEBOUNCE); // 1 is stored
        assertThat(a.incrementNow(SESSION)).isEqualTo(2);
        a.writer.hold();
        kit.advanceBy(DEBOUNCE); // the snapshot of 2 is handed to the writer
        return a;
    }

    @Test
    void aWriteAnsweredStaleBecauseTheSessionWasReacquiredMeanwhileIsWrittenAgainUnderTheNewToken() {
        RiggedStore rigged = new RiggedStore(store);
        DurableNode a = writingTwo(rigged);
        long epoch = a.durable.leaseEpoch();
        // While the write of 2 is on its way under the old token: the lease lapses and is taken again, and the
        // next call reacquires the session (nobody owned it meanwhile: the copy serves on, under a new token).
        rigged.beforeNextWrite = () -> {
            lapseAndRenew(rigged);
            assertThat(a.incrementNow(SESSION)).as("the copy served on after its reacquire").isEqualTo(3);
        };

        a.writer.letGo(); // the write reaches the store after the reacquire: STALE

        assertThat(a.durable.leaseEpoch()).as("premise: a new lease").isNotEqualTo(epoch).isPositive();
        assertThat(a.durable.counters().rejected()).as("not a fencing refusal: the node's own reacquire").isZero();
        assertThat(stored(SESSION)).as("written again under the new token").isEqualTo(2);
        kit.advanceBy(DEBOUNCE);
        assertThat(stored(SESSION)).isEqualTo(3);
        assertThat(a.incrementNow(SESSION)).as("the same copy, not a restore of an older snapshot").isEqualTo(4);
        assertThat(a.durable.counters().staleCopiesDropped()).isZero();
    }

    @Test
    void aWriteAnsweredLeaseExpiredWhileTheSessionWasReacquiredIsWrittenAgainUnderTheNewToken() {
        RiggedStore rigged = new RiggedStore(store);
        DurableNode a = writingTwo(rigged);
        // The write reaches the store after the lease lapsed (LEASE_EXPIRED), and the reacquire comes before its
        // answer is read.
        rigged.beforeNextWrite = () -> lapseAndRenew(rigged);
        rigged.afterNextWrite = () -> assertThat(a.incrementNow(SESSION)).isEqualTo(3);

        a.writer.letGo();

        assertThat(a.durable.counters().rejected()).as("not a fencing refusal: the node's own reacquire").isZero();
        assertThat(stored(SESSION)).as("written again under the new token").isEqualTo(2);
        kit.advanceBy(DEBOUNCE);
        assertThat(stored(SESSION)).isEqualTo(3);
        assertThat(a.incrementNow(SESSION)).isEqualTo(4);
    }

    @Test
    void premiseAWriteUnderALapsedLeaseWithoutAReacquireIsStillRefusedAndTheCopyDropped() {
        RiggedStore rigged = new RiggedStore(store);
        DurableNode a = writingTwo(rigged);
        RendererSyncContext context = a.contextOf(SESSION);
        rigged.beforeNextWrite = () -> lapseAndRenew(rigged);

        a.writer.letGo();

        assertThat(a.durable.counters().rejected(WriteOutcome.LEASE_EXPIRED)).isEqualTo(1);
        kit.runUntilIdle();
        assertThat(context.isClosed()).as("the copy was dropped: its context released").isTrue();
        assertThat(stored(SESSION)).as("the refused write changed nothing").isEqualTo(1);
    }
}
