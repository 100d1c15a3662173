package dev.synccontext.test.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.test.Explorer;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The scenarios can fail, for the reason they test: with a store that breaks one guarantee, the explorer finds a
 * seed on which the scenario's assertion fails.
 */
class ClusterPremisesTest {

    private static final int SEEDS = 20;

    @Test
    void withoutTheLeaseRoundRobinOverlapsASessionAcrossNodes() {
        long failing = LongStream.rangeClosed(1, SEEDS).filter(seed -> Explorer.fails(seed,
                kit -> ClusterScenarios.roundRobin(kit, UnsafeStores::grantingWithoutLease))).count();

        assertThat(failing).as("seeds of %s on which a store granting without the lease let two nodes run one"
                + " session's callbacks on two copies", SEEDS).isPositive();
    }

    @Test
    void withoutFencingTheStalledOwnersLateWriteLosesAnUpdate() {
        long failing = LongStream.rangeClosed(1, SEEDS).filter(seed -> Explorer.fails(seed,
                kit -> ClusterScenarios.stalledOwner(kit, UnsafeStores::writingWithoutFencing))).count();

        assertThat(failing).as("seeds of %s on which a store accepting stale writes lost an acknowledged increment",
                SEEDS).isPositive();
    }
}
