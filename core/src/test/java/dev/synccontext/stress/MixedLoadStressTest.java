package dev.synccontext.stress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The stress proof: 4 producers × 100,000 mixed operations (every entry point, nested calls,
 * failing callbacks, close and closeNow) on one context and on 1,000 contexts that share a
 * 2-thread executor, and the same on the default executor. See {@link MixedLoad} for what is checked.
 *
 * <p>{@code -Dstress.scale=N} multiplies the operations (a soak by hand: {@code -Dstress.scale=20});
 * {@code -Dstress.seed=S} replays the random choices of a failed run (interleavings differ, so a
 * replay is likelier, not certain, to fail the same way). Every run prints its seed and figures.
 */
// Hang guard only (a deadlocked proof fails instead of stalling the build), never a speed bound.
@Timeout(value = 5, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MixedLoadStressTest {

    private static final double SCALE = Double.parseDouble(System.getProperty("stress.scale", "1"));
    private static final int PRODUCERS = 4;
    private static final int OPS_PER_PRODUCER = (int) (100_000 * SCALE);
    /** The default executor's threads are {@code synccontext-N} ({@code ElasticExecutor}). */
    private static final String DEFAULT_EXECUTOR_THREAD_PREFIX = "synccontext-";

    @Test
    void oneContextKeepsExclusionFifoAndLosesNothingUnderMixedLoad() throws InterruptedException {
        check(new MixedLoad(seed(), PRODUCERS, OPS_PER_PRODUCER, 1, 20_000));
    }

    @Test
    void thousandContextsOnTwoThreadsKeepExclusionFifoAndLoseNothing() throws InterruptedException {
        check(new MixedLoad(seed(), PRODUCERS, OPS_PER_PRODUCER, 1_000, 2_000));
    }

    /**
     * On the default executor, where a drain that catches up with a producer steps back
     * ({@code Drain}, "Stepping back from a producer"): the executor users get. {@code StepBackTest}
     * is the test that aims at the step back itself.
     */
    @Test
    void oneContextOnTheDefaultExecutorKeepsExclusionFifoAndLosesNothing() throws InterruptedException {
        check(new MixedLoad(seed(), PRODUCERS, OPS_PER_PRODUCER, 1, 20_000, RendererSyncContext.defaultExecutor(),
                DEFAULT_EXECUTOR_THREAD_PREFIX));
    }

    @Test
    void thousandContextsOnTheDefaultExecutorKeepExclusionFifoAndLoseNothing() throws InterruptedException {
        check(new MixedLoad(seed(), PRODUCERS, OPS_PER_PRODUCER, 1_000, 2_000, RendererSyncContext.defaultExecutor(),
                DEFAULT_EXECUTOR_THREAD_PREFIX));
    }

    private static long seed() {
        Long fixed = Long.getLong("stress.seed");
        return fixed != null ? fixed : System.nanoTime();
    }

    private static void check(MixedLoad load) throws InterruptedException {
        MixedLoad.Result result = load.run();
        String summary = result.summary(load.seed);
        System.out.println("[stress] " + summary);
        assertThat(result.violations())
                .as("violations (replay with -Dstress.seed=%d): %s", load.seed, summary)
                .isEmpty();
        assertThat(result.ops()).as(summary).isEqualTo((long) load.producers * load.opsPerProducer);
        assertThat(result.tasks() - result.ran() - result.reported()).as("tasks lost; " + summary).isZero();
    }
}
