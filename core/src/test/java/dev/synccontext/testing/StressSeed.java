package dev.synccontext.testing;

/** The seed of a randomized stress test: {@code -Dstress.seed=N} replays a run, else each run draws its own. */
public final class StressSeed {

    private StressSeed() {
    }

    /** This run's seed, printed with the flag that replays it, so a failure in a CI log can be rerun. */
    public static long announce(Class<?> test) {
        long seed = Long.getLong("stress.seed", System.nanoTime());
        System.out.println(test.getSimpleName() + " seed " + seed + " (rerun with -Dstress.seed=" + seed + ")");
        return seed;
    }
}
