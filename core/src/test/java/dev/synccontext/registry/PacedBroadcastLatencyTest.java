package dev.synccontext.registry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The capacity application's tick in miniature, on the default executor: a broadcast to 10,000 contexts whose
 * callbacks take ~10 µs each, and a click posted to another context right after it. Synchronous, the click's
 * callback waits behind the whole burst; paced ({@code broadcastAsync}), behind about a window. Asserts a ratio
 * measured in the same test (the machine may be shared), and prints both.
 */
@Tag("scale")
class PacedBroadcastLatencyTest {

    private static final int CONTEXTS = 10_000;
    private static final int BURSTS = 15;
    private static final long CALLBACK_NANOS = TimeUnit.MICROSECONDS.toNanos(10);

    @Test
    void aClickAfterAPacedBroadcastWaitsAFractionOfWhatItWaitsAfterASynchronousOne() throws Exception {
        try (SyncContextRegistry registry = new SyncContextRegistry(
                ContextTemplate.defaults(RendererSyncContext.defaultExecutor(), "default"))) {
            for (int i = 0; i < CONTEXTS; i++) {
                registry.create("session");
            }
            RendererSyncContext tab = registry.create("tab");
            long[] sync = new long[BURSTS];
            long[] paced = new long[BURSTS];
            long[] syncBurst = new long[BURSTS];
            long[] pacedBurst = new long[BURSTS];
            for (int burst = 0; burst < BURSTS; burst++) { // alternated, so both see the same machine
                sync[burst] = clickLatency(tab, callback -> registry.broadcast("session", callback), syncBurst, burst);
                paced[burst] = clickLatency(tab, callback -> registry.broadcastAsync("session", callback), pacedBurst,
                        burst);
            }
            long syncMedian = median(sync);
            long pacedMedian = median(paced);
            System.out.printf("click after a broadcast to %,d contexts (~10 us each), median of %d: synchronous %.2f ms,"
                    + " paced %.2f ms; the whole broadcast: synchronous %.1f ms, paced %.1f ms%n", CONTEXTS, BURSTS,
                    syncMedian / 1e6, pacedMedian / 1e6, median(syncBurst) / 1e6, median(pacedBurst) / 1e6);
            assertThat(pacedMedian).describedAs("paced %s ns against synchronous %s ns", pacedMedian, syncMedian)
                    .isLessThan(syncMedian / 5);
        }
    }

    /**
     * Nanoseconds from a click's post, right after {@code broadcast} returned, to its callback's start; the time
     * from the broadcast's call to its last callback's end goes into {@code bursts[index]}.
     */
    private static long clickLatency(RendererSyncContext tab, Consumer<Runnable> broadcast, long[] bursts, int index)
            throws Exception {
        CountDownLatch all = new CountDownLatch(CONTEXTS);
        Runnable tick = () -> {
            long end = System.nanoTime() + CALLBACK_NANOS;
            while (System.nanoTime() - end < 0) {
                Thread.onSpinWait();
            }
            all.countDown();
        };
        long start = System.nanoTime();
        broadcast.accept(tick);
        CompletableFuture<Long> ran = new CompletableFuture<>();
        long posted = System.nanoTime();
        tab.post(() -> ran.complete(System.nanoTime() - posted));
        long latency = ran.get(60, TimeUnit.SECONDS);
        assertThat(all.await(60, TimeUnit.SECONDS)).describedAs("every tick ran").isTrue();
        bursts[index] = System.nanoTime() - start;
        return latency;
    }

    private static long median(long[] samples) {
        long[] sorted = samples.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
