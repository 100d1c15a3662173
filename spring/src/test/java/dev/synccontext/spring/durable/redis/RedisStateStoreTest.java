package dev.synccontext.spring.durable.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.spring.durable.DurableType;
import dev.synccontext.spring.durable.HandOffMessage;
import dev.synccontext.spring.durable.NodeLease;
import dev.synccontext.spring.durable.Ownership;
import dev.synccontext.spring.durable.SnapshotCodec;
import dev.synccontext.spring.durable.SnapshotRefusedException;
import dev.synccontext.spring.durable.StateStore;
import dev.synccontext.spring.durable.StateStoreContract;
import dev.synccontext.spring.durable.WriteOutcome;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.json.JsonMapper;

/**
 * The contract on Redis (a real {@code redis-server} of this test's own), and the rules that are the scripts'
 * and Redis's: atomic fencing (with its premise: a raw write overwrites), Redis's own expiry, the idle timeout
 * on the keys, a lost token sequence, the key prefix, foreign bytes on the hand-off channel.
 */
@Tag("process")
class RedisStateStoreTest extends StateStoreContract {

    @RegisterExtension
    static final RedisStoreExtension REDIS = new RedisStoreExtension();

    @BeforeEach
    void emptyRedis() {
        REDIS.redis.raw().flushall();
    }

    @Override
    protected StateStore store() {
        return REDIS.store;
    }

    /** What Redis's expiry of the lease key does, now: the key is gone. */
    @Override
    protected void leaseRunsOut(NodeLease victim) {
        assertThat(REDIS.redis.raw().del("synccontext:node:" + victim.nodeId())).as("the lease key existed").isOne();
    }

    @Override
    protected int stressOperationsPerNode() {
        return 3_000;
    }

    @Test
    void aStaleWriteIsRefusedByTheScriptWhereARawWriteWouldOverwrite() {
        NodeLease a = lease("a", SHORT);
        long aToken = acquired("s", a);
        leaseRunsOut(a);
        NodeLease b = lease("b", LONG);
        long bToken = acquired("s", b);
        assertThat(REDIS.store.write("s", bToken, bytes("b1"), IDLE)).isEqualTo(WriteOutcome.ACCEPTED);

        assertThat(REDIS.store.write("s", aToken, bytes("a, woken up"), IDLE)).isEqualTo(WriteOutcome.STALE);
        assertThat(stored("s")).isEqualTo("b1");

        // Premise: the same write without the script's comparison (what a client-side check then SET amounts to
        // when the check passed before the pause) overwrites the new owner's state.
        REDIS.redis.raw().hset("synccontext:session:s", Map.of("data", "a, woken up", "dataToken", Long.toString(aToken)));
        assertThat(stored("s")).as("premise: the unfenced write landed").isEqualTo("a, woken up");
    }

    @Test
    void aNodeLeaseEndsWithRedisOwnExpiry() throws InterruptedException {
        NodeLease a = lease("a", Duration.ofMillis(200));
        long token = acquired("s", a);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (REDIS.redis.raw().exists("synccontext:node:a") == 1) {
            assertThat(System.nanoTime()).as("the lease key outlived 10 s").isLessThan(deadline);
            Thread.sleep(10); // polling Redis's expiry with a deadline, not waiting out a race
        }
        assertThat(REDIS.store.write("s", token, bytes("after expiry"), IDLE)).isEqualTo(WriteOutcome.LEASE_EXPIRED);
        assertThat(acquired("s", lease("b", LONG))).isGreaterThan(token);
    }

    @Test
    void sessionKeysExpireWithTheIdleTimeoutOfTheLastAcquireOrWrite() {
        NodeLease a = lease("a", LONG);
        long token = ((Ownership.Acquired) REDIS.store.acquire("s", a, Duration.ofMinutes(30))).token();
        assertThat(REDIS.redis.raw().pttl("synccontext:session:s")).isBetween(Duration.ofMinutes(29).toMillis(),
                Duration.ofMinutes(30).toMillis());
        assertThat(REDIS.store.write("s", token, bytes("v1"), Duration.ofMinutes(10))).isEqualTo(WriteOutcome.ACCEPTED);
        assertThat(REDIS.redis.raw().pttl("synccontext:session:s")).isBetween(Duration.ofMinutes(9).toMillis(),
                Duration.ofMinutes(10).toMillis());
        assertThat(REDIS.redis.raw().pttl("synccontext:node:a")).isBetween(LONG.minusMinutes(1).toMillis(),
                LONG.toMillis());
        assertThat(REDIS.redis.raw().pttl("synccontext:tokens")).as("the token sequence never expires").isEqualTo(-1);
    }

    @Test
    void aLostTokenSequenceCannotMakeASessionsTokenGoBackwards() {
        NodeLease a = lease("a", LONG);
        for (int i = 0; i < 10; i++) {
            acquired("warm-" + i, a);
        }
        long token = acquired("s", a);
        assertThat(REDIS.store.release("s", token)).isTrue();
        REDIS.redis.raw().del("synccontext:tokens"); // evicted, or Redis restarted without persistence
        long fresh = acquired("never-seen", a);
        assertThat(fresh).as("premise: the sequence restarted").isLessThan(token);
        assertThat(acquired("s", lease("b", LONG))).isGreaterThan(token);
    }

    @Test
    void everyKeyAndChannelCarriesTheConfiguredPrefix() throws InterruptedException {
        RedisStateStore prefixed = new RedisStateStore(REDIS.connections, "app1:sc:");
        try {
            NodeLease a = prefixed.acquireNodeLease("a", LONG).orElseThrow();
            long token = ((Ownership.Acquired) prefixed.acquire("s", a, IDLE)).token();
            assertThat(prefixed.write("s", token, bytes("x"), IDLE)).isEqualTo(WriteOutcome.ACCEPTED);
            assertThat(REDIS.redis.raw().keys("*")).containsExactlyInAnyOrder("app1:sc:tokens", "app1:sc:node:a",
                    "app1:sc:session:s");
            assertThat(REDIS.store.acquireNodeLease("a", LONG)).as("the default prefix's node a is another").isPresent();
            BlockingQueue<HandOffMessage> received = new LinkedBlockingQueue<>();
            try (StateStore.Subscription subscription = prefixed.subscribe("a", received::add)) {
                assertThat(REDIS.redis.raw().pubsubChannels("*")).containsExactly("app1:sc:handoff:a");
            }
        } finally {
            prefixed.close();
        }
        assertThatThrownBy(() -> new RedisStateStore(REDIS.connections, "my app:")).hasMessageContaining("U+0020");
    }

    @Test
    void aCorruptOversizedOrNewerValueInRedisIsRefusedByTheCodec() {
        SnapshotCodec codec = SnapshotCodec.builder(JsonMapper.builder().build()).maxBytes(1024)
                .register(DurableType.of("counter", Counter.class, 1)).build();
        NodeLease a = lease("a", LONG);
        long token = acquired("s", a);
        assertThat(REDIS.store.write("s", token, codec.encode(Map.of("counter", new Counter(3))), IDLE))
                .isEqualTo(WriteOutcome.ACCEPTED);
        assertThat(codec.decode(REDIS.store.read("s").orElseThrow().bytes())).containsEntry("counter", new Counter(3));

        Map<String, SnapshotRefusedException.Reason> tampered = Map.of(
                "{\"format\":1,\"beans\":{\"counter\":{\"type\":\"counter\",\"version\":1,\"state\":{\"va",
                SnapshotRefusedException.Reason.MALFORMED,
                "{\"format\":1,\"beans\":{\"counter\":{\"type\":\"counter\",\"version\":2,\"state\":{\"value\":3}}}}",
                SnapshotRefusedException.Reason.NEWER_VERSION,
                "{\"format\":1,\"beans\":{\"p\":{\"type\":\"java.lang.ProcessBuilder\",\"version\":1,\"state\":{}}}}",
                SnapshotRefusedException.Reason.UNKNOWN_TYPE,
                "{\"format\":1,\"beans\":{}}" + " ".repeat(2000),
                SnapshotRefusedException.Reason.OVERSIZED);
        for (Map.Entry<String, SnapshotRefusedException.Reason> value : tampered.entrySet()) {
            REDIS.redis.raw().hset("synccontext:session:s", "data", value.getKey());
            byte[] read = REDIS.store.read("s").orElseThrow().bytes();
            assertThatThrownBy(() -> codec.decode(read)).as(value.getKey())
                    .isInstanceOfSatisfying(SnapshotRefusedException.class,
                            refused -> assertThat(refused.reason()).isEqualTo(value.getValue()));
        }
    }

    @Test
    void foreignBytesOnTheHandOffChannelAreIgnored() throws InterruptedException {
        BlockingQueue<HandOffMessage> received = new LinkedBlockingQueue<>();
        try (StateStore.Subscription subscription = REDIS.store.subscribe("a", received::add)) {
            assertThat(REDIS.redis.raw().publish("synccontext:handoff:a", "rO0ABXNy java serialized?")).isOne();
            assertThat(REDIS.redis.raw().publish("synccontext:handoff:a", "REQUEST b has space")).isOne();
            HandOffMessage request = new HandOffMessage(HandOffMessage.Kind.REQUEST, "s", "b");
            assertThat(REDIS.store.publish("a", request)).isTrue();
            assertThat(received.poll(10, TimeUnit.SECONDS)).as("the first message delivered").isEqualTo(request);
        }
    }

    record Counter(int value) {
    }
}
