package dev.synccontext.spring.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.testing.Race;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The rules every {@link StateStore} keeps, run against each store by a subclass. The subclass says how a lease
 * runs out ({@link #leaseRunsOut}): by virtual time in memory, by Redis removing the key as its expiry would.
 * Test methods are public because the Redis store's test extends this class from another package.
 */
public abstract class StateStoreContract {

    /** Long enough never to pass during a test, unless a test moves time on purpose. */
    protected static final Duration IDLE = Duration.ofDays(1);
    protected static final Duration LONG = Duration.ofHours(1);
    /** The ttl of a lease a test lets run out. */
    protected static final Duration SHORT = Duration.ofSeconds(10);

    protected abstract StateStore store();

    /** Ends {@code victim} (a {@link #SHORT} lease) as its expiry would; leases of {@link #LONG} stay live. */
    protected abstract void leaseRunsOut(NodeLease victim);

    /** How many operations each node of the stress test runs; a store whose calls cross the network runs fewer. */
    protected int stressOperationsPerNode() {
        return 20_000;
    }

    protected final NodeLease lease(String nodeId, Duration ttl) {
        return store().acquireNodeLease(nodeId, ttl).orElseThrow(() -> new AssertionError(nodeId + " has a lease"));
    }

    protected final long acquired(String handle, NodeLease lease) {
        Ownership ownership = store().acquire(handle, lease, IDLE);
        assertThat(ownership).as("%s acquires %s", lease, handle).isInstanceOf(Ownership.Acquired.class);
        return ((Ownership.Acquired) ownership).token();
    }

    /** Acquires {@code handle} under {@code lease} and writes {@code text}, which the store accepts; the token. */
    protected final long acquiredAndWritten(String handle, NodeLease lease, String text) {
        long token = acquired(handle, lease);
        assertThat(store().write(handle, token, bytes(text), IDLE)).as("%s writes %s", lease, handle)
                .isEqualTo(WriteOutcome.ACCEPTED);
        return token;
    }

    protected static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    protected final String stored(String handle) {
        return store().read(handle).map(snapshot -> new String(snapshot.bytes(), StandardCharsets.UTF_8))
                .orElse("(none)");
    }

    @Test
    public void acquireIsExclusiveWhenTwoNodesRace() throws Exception {
        NodeLease a = lease("a", LONG);
        NodeLease b = lease("b", LONG);
        int sessions = 200;
        List<Callable<List<Ownership>>> nodes = new ArrayList<>();
        for (NodeLease lease : List.of(a, b)) {
            nodes.add(() -> {
                List<Ownership> mine = new ArrayList<>();
                for (int i = 0; i < sessions; i++) {
                    mine.add(store().acquire("race-" + i, lease, IDLE));
                }
                return mine;
            });
        }
        List<List<Ownership>> answers = Race.run(Duration.ofSeconds(30), nodes);
        List<Ownership> ofA = answers.get(0);
        List<Ownership> ofB = answers.get(1);
        for (int i = 0; i < sessions; i++) {
            Ownership first = ofA.get(i);
            Ownership second = ofB.get(i);
            boolean aWon = first instanceof Ownership.Acquired;
            Ownership.Acquired winner = (Ownership.Acquired) (aWon ? first : second);
            assertThat(aWon ? second : first).as("race-%d: the loser learns the winner and its token", i)
                    .isEqualTo(new Ownership.OwnedElsewhere(aWon ? "a" : "b", winner.token()));
        }
    }

    @Test
    public void theSecondNodeLearnsTheOwnerAndItsToken() {
        NodeLease a = lease("a", LONG);
        NodeLease b = lease("b", LONG);
        long token = acquired("s", a);
        assertThat(store().acquire("s", b, IDLE)).isEqualTo(new Ownership.OwnedElsewhere("a", token));
    }

    @Test
    public void theOwnerAskingAgainGetsItsOwnToken() {
        NodeLease a = lease("a", LONG);
        long token = acquired("s", a);
        assertThat(store().acquire("s", a, IDLE)).isEqualTo(new Ownership.Acquired(token, token));
    }

    @Test
    public void aStaleTokensWriteIsRefusedOnceAnotherNodeTookTheSession() {
        NodeLease a = lease("a", SHORT);
        long aToken = acquiredAndWritten("s", a, "a1");
        leaseRunsOut(a); // a is paused past its lease

        NodeLease b = lease("b", LONG);
        Ownership taken = store().acquire("s", b, IDLE);
        assertThat(taken).as("b takes the session of a lapsed lease, after a's token")
                .isInstanceOfSatisfying(Ownership.Acquired.class, acquired -> {
                    assertThat(acquired.token()).isGreaterThan(aToken);
                    assertThat(acquired.previousToken()).isEqualTo(aToken);
                });
        long bToken = ((Ownership.Acquired) taken).token();
        assertThat(stored("s")).as("b restores a's last accepted snapshot").isEqualTo("a1");

        assertThat(store().write("s", aToken, bytes("a2, after waking up"), IDLE)).isEqualTo(WriteOutcome.STALE);
        assertThat(store().write("s", bToken, bytes("b1"), IDLE)).isEqualTo(WriteOutcome.ACCEPTED);
        assertThat(store().write("s", aToken, bytes("a3"), IDLE)).isEqualTo(WriteOutcome.STALE);
        assertThat(store().read("s")).get().extracting(StoredSnapshot::token).isEqualTo(bToken);
        assertThat(stored("s")).isEqualTo("b1");
    }

    @Test
    public void aWriteUnderALeaseThatRanOutIsRefusedEvenIfNobodyTookTheSession() {
        NodeLease a = lease("a", SHORT);
        long token = acquiredAndWritten("s", a, "a1");
        leaseRunsOut(a);
        assertThat(store().write("s", token, bytes("a2"), IDLE)).isEqualTo(WriteOutcome.LEASE_EXPIRED);
        assertThat(stored("s")).isEqualTo("a1");
    }

    @Test
    public void aNodeLeaseTakenAgainAfterExpiryIssuesLargerTokensThanTheOldOneEverDid() {
        NodeLease first = lease("a", SHORT);
        long s1 = acquired("s1", first);
        long s2 = acquired("s2", first);
        leaseRunsOut(first);

        NodeLease again = lease("a", LONG);
        assertThat(again.epoch()).as("the new epoch").isGreaterThan(Math.max(s1, s2));
        Ownership resumed = store().acquire("s1", again, IDLE);
        assertThat(resumed).as("nobody owned s1 in between: previousToken names a's old token")
                .isInstanceOfSatisfying(Ownership.Acquired.class, acquired -> {
                    assertThat(acquired.token()).isGreaterThan(again.epoch());
                    assertThat(acquired.previousToken()).isEqualTo(s1);
                });
        assertThat(store().write("s1", s1, bytes("under the old lease"), IDLE)).isEqualTo(WriteOutcome.STALE);
        assertThat(store().write("s2", s2, bytes("under the old lease"), IDLE))
                .isEqualTo(WriteOutcome.LEASE_EXPIRED);
    }

    @Test
    public void releaseLetsAnotherNodeTakeOverAtOnceAndRestoreTheFinalSnapshot() {
        NodeLease a = lease("a", LONG);
        NodeLease b = lease("b", LONG);
        long aToken = acquiredAndWritten("s", a, "final");
        assertThat(store().release("s", aToken)).isTrue();

        Ownership taken = store().acquire("s", b, IDLE);
        assertThat(taken).isInstanceOfSatisfying(Ownership.Acquired.class, acquired -> {
            assertThat(acquired.token()).isGreaterThan(aToken);
            assertThat(acquired.previousToken()).isEqualTo(aToken);
        });
        assertThat(store().read("s")).get().extracting(StoredSnapshot::token).isEqualTo(aToken);
        assertThat(stored("s")).isEqualTo("final");
        assertThat(store().write("s", aToken, bytes("late"), IDLE)).isEqualTo(WriteOutcome.STALE);
        assertThat(store().release("s", aToken)).as("a's release after the takeover").isFalse();
        assertThat(store().acquire("s", a, IDLE)).isEqualTo(
                new Ownership.OwnedElsewhere("b", ((Ownership.Acquired) taken).token()));
    }

    @Test
    public void aWriteAfterItsOwnReleaseIsRefused() {
        NodeLease a = lease("a", LONG);
        long token = acquired("s", a);
        assertThat(store().release("s", token)).isTrue();
        assertThat(store().write("s", token, bytes("after release"), IDLE)).isEqualTo(WriteOutcome.NOT_OWNED);
        assertThat(store().read("s")).isEmpty();
    }

    @Test
    public void aReleaseWithAStaleTokenChangesNothing() {
        NodeLease a = lease("a", LONG);
        NodeLease b = lease("b", LONG);
        long token = acquired("s", a);
        assertThat(store().release("s", token + 1)).isFalse();
        assertThat(store().acquire("s", b, IDLE)).isEqualTo(new Ownership.OwnedElsewhere("a", token));
    }

    @Test
    public void deleteAtSessionEndRemovesStateAndOwnershipAndTokensKeepGrowing() {
        NodeLease a = lease("a", LONG);
        NodeLease b = lease("b", LONG);
        long token = acquiredAndWritten("s", a, "state");
        store().delete("s");
        assertThat(store().read("s")).isEmpty();
        assertThat(store().write("s", token, bytes("after the end"), IDLE)).isEqualTo(WriteOutcome.NOT_OWNED);
        assertThat(store().release("s", token)).isFalse();
        Ownership again = store().acquire("s", b, IDLE);
        assertThat(again).as("a new record: no previous token, and still a larger token")
                .isInstanceOfSatisfying(Ownership.Acquired.class, acquired -> {
                    assertThat(acquired.previousToken()).isZero();
                    assertThat(acquired.token()).isGreaterThan(token);
                });
        store().delete("never-seen"); // does nothing
    }

    @Test
    public void renewKeepsTheLeaseAndAnswersFalseOnceItRanOut() {
        NodeLease a = lease("a", SHORT);
        assertThat(store().renewNodeLease(a)).isTrue();
        leaseRunsOut(a);
        assertThat(store().renewNodeLease(a)).isFalse();
        assertThat(store().acquire("s", a, IDLE)).isEqualTo(new Ownership.LeaseLost(a));
    }

    @Test
    public void aNodeIdWithALiveLeaseIsRefusedUntilThatLeaseEnds() {
        NodeLease a = lease("a", LONG);
        assertThat(store().acquireNodeLease("a", LONG)).isEmpty();
        store().releaseNodeLease(a);
        assertThat(store().acquireNodeLease("a", LONG).orElseThrow().epoch()).isGreaterThan(a.epoch());
        assertThat(store().renewNodeLease(a)).as("the released lease, after a new one of the same id").isFalse();
        store().releaseNodeLease(a); // not live: must not end the new lease
        assertThat(store().acquireNodeLease("a", LONG)).as("the new lease is still live").isEmpty();
    }

    @Test
    public void releasingANodeLeaseFreesItsSessionsAtOnce() {
        NodeLease a = lease("a", LONG);
        NodeLease b = lease("b", LONG);
        long token = acquired("s", a);
        store().releaseNodeLease(a);
        assertThat(store().write("s", token, bytes("after shutdown"), IDLE)).isEqualTo(WriteOutcome.LEASE_EXPIRED);
        assertThat(acquired("s", b)).isGreaterThan(token);
    }

    @Test
    public void handOffMessagesReachTheAddressedNodeOnly() throws InterruptedException {
        BlockingQueue<HandOffMessage> toA = new LinkedBlockingQueue<>();
        BlockingQueue<HandOffMessage> toB = new LinkedBlockingQueue<>();
        try (StateStore.Subscription a = store().subscribe("a", toA::add);
                StateStore.Subscription b = store().subscribe("b", toB::add)) {
            HandOffMessage request = new HandOffMessage(HandOffMessage.Kind.REQUEST, "s", "b");
            assertThat(store().publish("a", request)).as("a subscriber of a was there").isTrue();
            assertThat(toA.poll(10, TimeUnit.SECONDS)).isEqualTo(request);
            HandOffMessage released = new HandOffMessage(HandOffMessage.Kind.RELEASED, "s", "a");
            assertThat(store().publish("b", released)).isTrue();
            assertThat(toB.poll(10, TimeUnit.SECONDS)).as("b's first message is the answer, not a's request")
                    .isEqualTo(released);
            assertThat(store().publish("c", request)).as("nobody listens for c").isFalse();
        }
        assertThat(store().publish("a", new HandOffMessage(HandOffMessage.Kind.REQUEST, "s", "b")))
                .as("after the subscription closed").isFalse();
        assertThat(toA).isEmpty();
    }

    @Test
    public void handlesAndNodeIdsThatAreNotVisibleAsciiAreRefusedNamingTheFix() {
        NodeLease a = lease("a", LONG);
        assertThatThrownBy(() -> store().acquire("has space", a, IDLE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("session handle 'has space'").hasMessageContaining("index 3")
                .hasMessageContaining("visible ASCII");
        assertThatThrownBy(() -> store().acquireNodeLease("", LONG)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("node id has 1 to 200 characters");
        assertThatThrownBy(() -> store().write("s", 1, bytes("x"), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("idle timeout must be at least 1 ms");
    }

    /**
     * 2 to 4 threads act as nodes fighting over 100 sessions: they acquire, write, release, read, and now and then
     * lose their lease as a pause past its ttl would (the lease ends in the store while the node still holds its
     * tokens), write with the stale tokens, then take a new lease. Rules: no write is accepted under a token older
     * than one the store had already granted for that session when the write was sent; reads of a session never
     * go back to an older token; and each session ends holding the last write of the largest token that had a
     * write accepted.
     */
    @Test
    public void nodesFightingOverSessionsNeverHaveAStaleWriteAccepted() throws Exception {
        long seed = Long.getLong("durable.stress.seed", System.nanoTime());
        int nodes = 2 + (int) Math.floorMod(seed, 3L);
        int operations = stressOperationsPerNode();
        System.out.printf("%s stress: seed %d (-Ddurable.stress.seed=%d), %d nodes x %d operations, 100 sessions%n",
                getClass().getSimpleName(), seed, seed, nodes, operations);
        Map<String, AtomicLong> granted = new ConcurrentHashMap<>();
        Map<String, long[]> lastOfLargest = new ConcurrentHashMap<>(); // {token, sequence}
        AtomicReference<String> violation = new AtomicReference<>();
        Map<WriteOutcome, AtomicLong> outcomes = new ConcurrentHashMap<>();
        AtomicLong pauses = new AtomicLong();
        AtomicLong sequence = new AtomicLong();
        List<Callable<Void>> runs = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            String nodeId = "node-" + n;
            Random random = new Random(seed * 31 + n);
            runs.add(() -> {
                NodeLease lease = lease(nodeId, LONG);
                Map<String, Long> held = new HashMap<>();
                Map<String, Long> seen = new HashMap<>();
                for (int op = 0; op < operations && violation.get() == null; op++) {
                    String handle = "s" + random.nextInt(100);
                    int dice = random.nextInt(100);
                    if (dice < 30) {
                        long before = granted.computeIfAbsent(handle, h -> new AtomicLong()).get();
                        Ownership ownership = store().acquire(handle, lease, IDLE);
                        if (ownership instanceof Ownership.Acquired acquired) {
                            if (acquired.token() != acquired.previousToken() && acquired.token() <= before) {
                                violation.compareAndSet(null, nodeId + " was granted " + handle + " under token "
                                        + acquired.token() + ", not above " + before + " granted before");
                            }
                            granted.get(handle).accumulateAndGet(acquired.token(), Math::max);
                            held.put(handle, acquired.token());
                        } else if (ownership instanceof Ownership.LeaseLost) {
                            lease = lease(nodeId, LONG);
                        }
                    } else if (dice < 75 && !held.isEmpty()) {
                        String mine = pick(held, random);
                        long token = held.get(mine);
                        long grantedBefore = granted.get(mine).get();
                        long seq = sequence.incrementAndGet();
                        WriteOutcome outcome = store().write(mine, token, bytes(nodeId + " " + token + " " + seq),
                                IDLE);
                        outcomes.computeIfAbsent(outcome, o -> new AtomicLong()).incrementAndGet();
                        if (outcome == WriteOutcome.ACCEPTED) {
                            if (token < grantedBefore) {
                                violation.compareAndSet(null, nodeId + "'s write to " + mine + " under token "
                                        + token + " was accepted after token " + grantedBefore + " was granted");
                            }
                            lastOfLargest.merge(mine, new long[] {token, seq},
                                    (old, now) -> now[0] > old[0] || (now[0] == old[0] && now[1] > old[1])
                                            ? now : old);
                        } else {
                            held.remove(mine);
                        }
                    } else if (dice < 85 && !held.isEmpty()) {
                        String mine = pick(held, random);
                        store().release(mine, held.remove(mine));
                    } else if (dice < 97) {
                        Optional<StoredSnapshot> snapshot = store().read(handle);
                        long last = seen.getOrDefault(handle, 0L);
                        if (snapshot.isPresent() && snapshot.get().token() < last) {
                            violation.compareAndSet(null, nodeId + " read " + handle + " written under token "
                                    + snapshot.get().token() + " after reading one of token " + last);
                        }
                        snapshot.ifPresent(s -> seen.put(handle, s.token()));
                    } else {
                        // A pause past the lease: the store ends it while this node still holds its tokens.
                        pauses.incrementAndGet();
                        store().releaseNodeLease(lease);
                        for (Map.Entry<String, Long> stale : held.entrySet()) {
                            WriteOutcome outcome = store().write(stale.getKey(), stale.getValue(),
                                    bytes(nodeId + " stale " + stale.getValue()), IDLE);
                            if (outcome == WriteOutcome.ACCEPTED) {
                                violation.compareAndSet(null, nodeId + "'s write to " + stale.getKey()
                                        + " under token " + stale.getValue() + " was accepted after its lease"
                                        + " ended");
                            }
                        }
                        lease = lease(nodeId, LONG);
                    }
                }
                return null;
            });
        }
        Race.run(Duration.ofMinutes(5), runs);
        System.out.printf("%s stress: writes %s, lease losses %d%n", getClass().getSimpleName(), outcomes,
                pauses.get());
        assertThat(violation.get()).as("seed %d", seed).isNull();
        assertThat(outcomes.get(WriteOutcome.ACCEPTED)).as("seed %d: some writes accepted", seed).isNotNull();
        for (Map.Entry<String, long[]> last : lastOfLargest.entrySet()) {
            long token = last.getValue()[0];
            String stored = stored(last.getKey());
            assertThat(stored).as("seed %d: %s holds the last write of its largest accepted token", seed,
                    last.getKey()).endsWith(" " + token + " " + last.getValue()[1]);
        }
    }

    private static String pick(Map<String, Long> held, Random random) {
        int index = random.nextInt(held.size());
        for (String handle : held.keySet()) {
            if (index-- == 0) {
                return handle;
            }
        }
        throw new AssertionError("unreachable");
    }
}
