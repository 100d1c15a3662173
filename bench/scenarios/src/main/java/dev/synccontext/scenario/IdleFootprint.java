package dev.synccontext.scenario;

import dev.synccontext.RendererSyncContext;
import java.lang.ref.Reference;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Heap retained by idle contexts: the other half of the {@code ManyContexts} scenario (thousands of
 * sessions, each with a context that is idle nearly all the time).
 *
 * <p>It is an <b>estimate</b>: it builds {@code count} contexts and compares heap use after
 * requested full collections, so {@code System.gc()} must be honoured (it is, unless
 * {@code -XX:+DisableExplicitGC}) and other threads allocating meanwhile add noise. Thousands of
 * contexts drown that noise; what the factory shares between contexts (settings, executor) is
 * counted once, on the first context, and vanishes in the average.
 */
public final class IdleFootprint {

    private IdleFootprint() {
    }

    /** Retained bytes per idle context built by {@code factory}, averaged over {@code count} of them. */
    public static double bytesPerIdleContext(Supplier<? extends RendererSyncContext> factory, int count) {
        return bytesPerObject(factory, count);
    }

    /**
     * The same estimate for objects of any kind built by {@code factory} (another library's executor, say),
     * so that their figures compare with a context's.
     */
    public static double bytesPerObject(Supplier<?> factory, int count) {
        Objects.requireNonNull(factory, "factory");
        if (count < 1) {
            throw new IllegalArgumentException("count must be at least 1, was " + count);
        }
        Runtime runtime = Runtime.getRuntime();
        long before = settledHeapUse(runtime);
        Object[] held = new Object[count];
        for (int i = 0; i < count; i++) {
            held[i] = factory.get();
        }
        long after = settledHeapUse(runtime);
        Reference.reachabilityFence(held);
        long array = 16L + 4L * count; // the holding array itself (compressed oops), not a context's cost
        return (after - before - array) / (double) count;
    }

    private static long settledHeapUse(Runtime runtime) {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            System.gc();
            used = Math.min(used, runtime.totalMemory() - runtime.freeMemory());
        }
        return used;
    }
}
