package dev.synccontext.test.cluster;

import dev.synccontext.spring.durable.StateStore;
import dev.synccontext.test.Explorer;
import dev.synccontext.test.SyncContextTestKit;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The durable-state scenarios on the in-memory cluster, each explored over 50 seeds: every seed is another
 * order of the nodes' callbacks, requests, store writes, renewals and hand-off messages at each instant.
 * A subclass explores the same scenarios over other seeds ({@link #firstSeed()}, {@link #seeds()}).
 */
class ClusterScenariosTest {

    /** Each run costs about 65 ms of CPU; the modelcheck tier explores many more ({@link ClusterScenariosModelCheckTest}). */
    static final int SEEDS = Integer.getInteger("synccontext.cluster.seeds", 50);

    @Test
    void rollingDeployUnderLoadLosesNothing() {
        explore(ClusterScenarios::rollingDeploy);
    }

    @Test
    void aKilledNodeLosesAtMostItsLastDebounce() {
        explore(ClusterScenarios::kill);
    }

    @Test
    void roundRobinNeverOverlapsASessionAcrossNodes() {
        explore(ClusterScenarios::roundRobin);
    }

    @Test
    void aStalledOwnersLateWriteIsRefusedAndNothingElseIsLost() {
        explore(ClusterScenarios::stalledOwner);
    }

    /** The first seed each scenario is explored with. */
    long firstSeed() {
        return 1;
    }

    /** How many seeds, from {@link #firstSeed()} on, each scenario is explored with. */
    int seeds() {
        return SEEDS;
    }

    /** Explores {@code scenario} on the correct store (not decorated) over this class's seeds. */
    private void explore(BiConsumer<SyncContextTestKit, UnaryOperator<StateStore>> scenario) {
        Explorer.explore(firstSeed(), seeds(), kit -> scenario.accept(kit, UnaryOperator.identity()));
    }
}
