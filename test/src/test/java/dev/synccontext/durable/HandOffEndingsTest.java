package dev.synccontext.durable;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.spring.durable.session.HandOffCause;
import dev.synccontext.spring.durable.session.SessionUnavailableException;
import dev.synccontext.test.SyncContextTestKit;
import dev.synccontext.test.cluster.ClusterNode;
import dev.synccontext.test.cluster.Counter;
import dev.synccontext.test.cluster.InMemoryCluster;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * How a hand-off ends, on a two-node in-memory cluster: answered by the owner (RELEASED), polled until a dead owner's
 * lease expired (the {@code FAILURE} cause), or timed out. Every ending leaves no wait behind on the asking node.
 */
class HandOffEndingsTest {

    private static final Duration TTL = Duration.ofSeconds(1);
    private static final Duration DEBOUNCE = Duration.ofMillis(200);
    private static final String SESSION = "s1";

    private final SyncContextTestKit kit = SyncContextTestKit.create();

    private InMemoryCluster cluster(Duration handOffTimeout) {
        return InMemoryCluster.builder(kit).nodes("a", "b").durable(Counter.class).nodeLeaseTtl(TTL)
                .handOffTimeout(handOffTimeout).debounce(DEBOUNCE).build();
    }

    private CompletableFuture<Integer> increment(ClusterNode node) {
        CompletableFuture<Integer> answer = node.call(SESSION, call -> call.bean(Counter.class).increment());
        kit.runUntilIdle();
        return answer;
    }

    @Test
    void aLiveOwnerAnswersTheRequestAndNoWaitIsLeft() {
        InMemoryCluster cluster = cluster(Duration.ofSeconds(3));
        ClusterNode a = cluster.node("a");
        ClusterNode b = cluster.node("b");
        increment(a).join();

        assertThat(increment(b).join()).as("a wrote its final snapshot, released, b restored").isEqualTo(2);
        assertThat(b.counters().handOffs(HandOffCause.NO_AFFINITY)).isEqualTo(1);
        assertThat(b.handOffWaits()).isZero();
        cluster.close();
    }

    @Test
    void aKilledOwnersSessionIsPolledForUntilItsLeaseExpiredCountedAsAFailureAndNoWaitIsLeft() {
        InMemoryCluster cluster = cluster(Duration.ofSeconds(3)); // above the ttl: the request waits, not fails
        ClusterNode a = cluster.node("a");
        ClusterNode b = cluster.node("b");
        increment(a).join();
        increment(a).join();
        kit.advanceBy(DEBOUNCE); // a's snapshot of 2 is written
        a.kill(); // SIGKILL: the hand-off request reaches no one, no RELEASED comes

        CompletableFuture<Integer> taken = increment(b);

        assertThat(taken.join()).as("b took the session once a's lease expired, from a's last snapshot").isEqualTo(3);
        assertThat(b.counters().handOffsRequested()).as("b asked the dead owner").isEqualTo(1);
        assertThat(b.counters().handOffs(HandOffCause.FAILURE)).as("no answer: the owner failed").isEqualTo(1);
        assertThat(b.counters().handOffs(HandOffCause.NO_AFFINITY)).isZero();
        assertThat(b.handOffWaits()).as("the wait for a RELEASED that never came is gone").isZero();
        cluster.close();
    }

    @Test
    void aHandOffThatTimesOutIsAnswered503AndNoWaitIsLeft() {
        InMemoryCluster cluster = cluster(Duration.ofMillis(500)); // below the ttl: a stalled owner is waited out
        ClusterNode a = cluster.node("a");
        ClusterNode b = cluster.node("b");
        increment(a).join();
        a.pause(); // stalled: its lease lives on for now, it answers nothing

        CompletableFuture<Integer> refused = increment(b);

        assertThat(refused).failsWithin(Duration.ZERO).withThrowableOfType(Exception.class).havingRootCause()
                .isInstanceOf(SessionUnavailableException.class).withMessageContaining("did not hand it over");
        assertThat(b.counters().handOffTimeouts()).isEqualTo(1);
        assertThat(b.handOffWaits()).as("the timed-out wait is gone").isZero();
        a.resume();
        kit.runUntilIdle();
        cluster.close();
    }
}
