package dev.synccontext.test.cluster;

import dev.synccontext.test.Explorer;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The scenarios of {@link ClusterScenariosTest} over 1,000 more seeds each (seeds 1,001 to 2,000): the modelcheck
 * tier, a few minutes of CPU in all.
 */
@Tag("modelcheck")
class ClusterScenariosModelCheckTest {

    private static final long FIRST = 1_001;
    private static final int SEEDS = Integer.getInteger("synccontext.cluster.seeds", 1_000);

    @Test
    void rollingDeployUnderLoadLosesNothing() {
        Explorer.explore(FIRST, SEEDS, kit -> ClusterScenarios.rollingDeploy(kit, UnaryOperator.identity()));
    }

    @Test
    void aKilledNodeLosesAtMostItsLastDebounce() {
        Explorer.explore(FIRST, SEEDS, kit -> ClusterScenarios.kill(kit, UnaryOperator.identity()));
    }

    @Test
    void roundRobinNeverOverlapsASessionAcrossNodes() {
        Explorer.explore(FIRST, SEEDS, kit -> ClusterScenarios.roundRobin(kit, UnaryOperator.identity()));
    }

    @Test
    void aStalledOwnersLateWriteIsRefusedAndNothingElseIsLost() {
        Explorer.explore(FIRST, SEEDS, kit -> ClusterScenarios.stalledOwner(kit, UnaryOperator.identity()));
    }
}
