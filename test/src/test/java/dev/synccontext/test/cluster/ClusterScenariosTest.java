package dev.synccontext.test.cluster;

import dev.synccontext.test.Explorer;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The durable-state scenarios on the in-memory cluster, each explored over 50 seeds: every seed is another
 * order of the nodes' callbacks, requests, store writes, renewals and hand-off messages at each instant.
 */
class ClusterScenariosTest {

    /** Each run costs about 65 ms of CPU; the modelcheck tier explores many more ({@link ClusterScenariosModelCheckTest}). */
    static final int SEEDS = Integer.getInteger("synccontext.cluster.seeds", 50);

    @Test
    void rollingDeployUnderLoadLosesNothing() {
        Explorer.explore(1, SEEDS, kit -> ClusterScenarios.rollingDeploy(kit, UnaryOperator.identity()));
    }

    @Test
    void aKilledNodeLosesAtMostItsLastDebounce() {
        Explorer.explore(1, SEEDS, kit -> ClusterScenarios.kill(kit, UnaryOperator.identity()));
    }

    @Test
    void roundRobinNeverOverlapsASessionAcrossNodes() {
        Explorer.explore(1, SEEDS, kit -> ClusterScenarios.roundRobin(kit, UnaryOperator.identity()));
    }

    @Test
    void aStalledOwnersLateWriteIsRefusedAndNothingElseIsLost() {
        Explorer.explore(1, SEEDS, kit -> ClusterScenarios.stalledOwner(kit, UnaryOperator.identity()));
    }
}
