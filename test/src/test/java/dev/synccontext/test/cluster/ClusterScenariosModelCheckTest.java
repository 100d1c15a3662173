package dev.synccontext.test.cluster;

import org.junit.jupiter.api.Tag;

/**
 * The scenarios of {@link ClusterScenariosTest} over 1,000 more seeds each (seeds 1,001 to 2,000): the modelcheck
 * tier, a few minutes of CPU in all.
 */
@Tag("modelcheck")
class ClusterScenariosModelCheckTest extends ClusterScenariosTest {

    @Override
    long firstSeed() {
        return 1_001;
    }

    @Override
    int seeds() {
        return Integer.getInteger("synccontext.cluster.seeds", 1_000);
    }
}
