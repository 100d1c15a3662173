package dev.synccontext.test;

import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * Runs a scenario under many interleavings, each chosen by a seed, and names the seed of the first run
 * that fails, so that {@link #replay} reproduces it exactly.
 *
 * <p>A scenario gets a fresh {@link SyncContextTestKit#exploring(long) exploring kit} per run, builds its
 * contexts with it, starts its producers ({@link SyncContextTestKit#spawn}, or work submitted to the
 * kit's executor), runs it ({@link SyncContextTestKit#runUntilIdle()} or an advance), and asserts. The
 * run fails when the scenario throws or when {@link SyncContextTestKit#verify()} does after it.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Reproducible.</b> A run depends only on its seed and the scenario: the kit's executor draws
 *       every choice from that seed, and nothing else runs (as long as the scenario starts no threads
 *       and reads no real clock).</li>
 *   <li><b>Printed.</b> A failing run's seed is printed to {@code System.err} and carried by the thrown
 *       {@link InterleavingFailure}, whose cause is the run's failure.</li>
 * </ul>
 */
public final class Explorer {

    private Explorer() {
    }

    /**
     * Runs {@code scenario} with seeds {@code firstSeed}, {@code firstSeed + 1}, ... for {@code runs} runs.
     *
     * @throws InterleavingFailure naming the seed of the first failing run
     */
    public static void explore(long firstSeed, int runs, Consumer<SyncContextTestKit> scenario) {
        Objects.requireNonNull(scenario, "scenario");
        if (runs < 1) {
            throw new IllegalArgumentException("runs must be at least 1, was " + runs);
        }
        for (int run = 0; run < runs; run++) {
            long seed = firstSeed + run;
            Throwable failure = attempt(seed, scenario);
            if (failure != null) {
                InterleavingFailure reported = new InterleavingFailure(seed, run + 1, failure);
                System.err.println(reported.getMessage());
                throw reported;
            }
        }
    }

    /**
     * Runs {@code scenario} once with {@code seed}: the interleaving that {@link #explore} reported.
     *
     * @throws InterleavingFailure if it fails
     */
    public static void replay(long seed, Consumer<SyncContextTestKit> scenario) {
        Objects.requireNonNull(scenario, "scenario");
        Throwable failure = attempt(seed, scenario);
        if (failure != null) {
            InterleavingFailure reported = new InterleavingFailure(seed, 1, failure);
            System.err.println(reported.getMessage());
            throw reported;
        }
    }

    /** Whether {@code scenario} fails with {@code seed}: for counting, without printing. */
    public static boolean fails(long seed, Consumer<SyncContextTestKit> scenario) {
        return attempt(seed, scenario) != null;
    }

    private static @Nullable Throwable attempt(long seed, Consumer<SyncContextTestKit> scenario) {
        SyncContextTestKit kit = SyncContextTestKit.exploring(seed);
        try {
            scenario.accept(kit);
            kit.verify();
            return null;
        } catch (Throwable failure) {
            return failure;
        }
    }

    /** A run of the explorer failed; {@link #seed()} replays it. */
    public static final class InterleavingFailure extends AssertionError {

        private static final long serialVersionUID = 1L;

        private final long seed;

        InterleavingFailure(long seed, int run, Throwable cause) {
            super("Interleaving explorer: run " + run + " failed with seed " + seed + " (replay it with"
                    + " Explorer.replay(" + seed + "L, scenario) or @SyncContextTest(seed = " + seed + "L)): "
                    + cause, cause);
            this.seed = seed;
        }

        /** The seed of the failing run. */
        public long seed() {
            return seed;
        }
    }
}
