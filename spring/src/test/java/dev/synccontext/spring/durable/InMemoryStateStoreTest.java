package dev.synccontext.spring.durable;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The contract on the in-memory store, and its timing rules on virtual time, to the nanosecond. */
class InMemoryStateStoreTest extends StateStoreContract {

    private final ManualClock clock = new ManualClock();
    private final InMemoryStateStore store = new InMemoryStateStore(clock);

    @Override
    protected StateStore store() {
        return store;
    }

    @Override
    protected void leaseRunsOut(NodeLease victim) {
        assertThat(victim.ttl()).as("a lease a test lets run out").isEqualTo(SHORT);
        clock.advance(SHORT);
    }

    @Test
    void aNodeLeaseExpiresExactlyAtItsTtlAndNotANanosecondEarlier() {
        NodeLease a = lease("a", SHORT);
        NodeLease b = lease("b", LONG);
        long token = acquired("s", a);
        clock.advance(SHORT.minusNanos(1));
        assertThat(store.acquire("s", b, IDLE)).as("1 ns before expiry").isEqualTo(
                new Ownership.OwnedElsewhere("a", token));
        clock.advance(Duration.ofNanos(1));
        assertThat(store.acquire("s", b, IDLE)).as("at expiry").isInstanceOf(Ownership.Acquired.class);
    }

    @Test
    void renewalKeepsALeaseAliveAcrossManyTtls() {
        NodeLease a = lease("a", SHORT);
        NodeLease b = lease("b", Duration.ofDays(30));
        long token = acquired("s", a);
        for (int period = 0; period < 100; period++) {
            clock.advance(a.renewalPeriod());
            assertThat(store.renewNodeLease(a)).as("renewal %d", period).isTrue();
        }
        assertThat(store.write("s", token, bytes("still mine"), IDLE)).isEqualTo(WriteOutcome.ACCEPTED);
        assertThat(store.acquire("s", b, IDLE)).isEqualTo(new Ownership.OwnedElsewhere("a", token));
        clock.advance(SHORT);
        assertThat(store.renewNodeLease(a)).as("one ttl without renewal").isFalse();
    }

    @Test
    void aSessionRecordExpiresAfterItsIdleTimeoutAndEachAcceptedWriteRestartsIt() {
        Duration idle = Duration.ofMinutes(30);
        NodeLease a = lease("a", Duration.ofDays(30));
        long token = ((Ownership.Acquired) store.acquire("s", a, idle)).token();
        clock.advance(idle.minusNanos(1));
        assertThat(store.write("s", token, bytes("v1"), idle)).isEqualTo(WriteOutcome.ACCEPTED);
        clock.advance(idle.minusNanos(1));
        assertThat(store.read("s")).as("idle timeout after the write, less 1 ns").isPresent();
        clock.advance(Duration.ofNanos(1));
        assertThat(store.read("s")).as("idle timeout after the write").isEmpty();
        assertThat(store.write("s", token, bytes("v2"), idle)).isEqualTo(WriteOutcome.NOT_OWNED);
    }

    @Test
    void expiredSessionsAreSweptAtARenewalEvenIfNeverTouchedAgain() {
        NodeLease a = lease("a", Duration.ofDays(30));
        for (int i = 0; i < 1000; i++) {
            store.acquire("s" + i, a, Duration.ofMinutes(30));
        }
        assertThat(store.sessionCount()).isEqualTo(1000);
        clock.advance(Duration.ofMinutes(30));
        assertThat(store.renewNodeLease(a)).isTrue();
        assertThat(store.sessionCount()).as("records left after their idle timeout and a renewal").isZero();
    }

    @Test
    void handOffMessagesAreDeliveredOnTheGivenExecutorOutsideThePublishCall() {
        List<Runnable> queued = new ArrayList<>();
        InMemoryStateStore queuedStore = new InMemoryStateStore(clock, queued::add);
        List<HandOffMessage> received = new ArrayList<>();
        queuedStore.subscribe("a", received::add);
        HandOffMessage request = new HandOffMessage(HandOffMessage.Kind.REQUEST, "s", "b");
        assertThat(queuedStore.publish("a", request)).isTrue();
        assertThat(received).as("before the executor ran").isEmpty();
        queued.forEach(Runnable::run);
        assertThat(received).containsExactly(request);
    }
}
