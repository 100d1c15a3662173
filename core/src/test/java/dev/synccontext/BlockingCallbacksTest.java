package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;

/**
 * Rule: with default settings, a callback that blocks never delays the queued work of another
 * context. The scenario, on the default executor of {@link RendererSyncContext#create()}: 100
 * contexts, 10 of them with a callback blocked for up to 5 s; 1,000 posts spread over the other 90
 * all run, and the 99th percentile from {@code post} to the callback's start is under 100 ms. On
 * {@code ForkJoinPool.commonPool()} (one worker on 2 CPUs) the posts wait for the blocked callbacks.
 *
 * <p>The blocked callbacks wait on a latch for at most 5 s; the test releases them as soon as the
 * posts have been measured, so it takes well under a second when the rule holds.
 */
class BlockingCallbacksTest {

    static final int CONTEXTS = 100;
    static final int BLOCKED = 10;
    static final int POSTS = 1_000;
    static final Duration BLOCK_FOR = Duration.ofSeconds(5);

    @Test
    void blockedCallbacksDoNotDelayOtherContextsOnTheDefaultExecutor() throws Exception {
        List<RendererSyncContext> contexts = new ArrayList<>();
        for (int i = 0; i < CONTEXTS; i++) {
            contexts.add(RendererSyncContext.create());
        }
        Result result = measure(contexts);
        System.out.println("BlockingCallbacksTest on the default executor: " + result);
        assertThat(result.ran).as("posts that ran while %d callbacks were blocked", BLOCKED).isEqualTo(POSTS);
        assertThat(result.p99Millis()).as("p99 post-to-run latency in ms (%s)", result).isLessThan(100.0);
    }

    /** Blocks {@link #BLOCKED} contexts, then posts {@link #POSTS} callbacks over the others and times them. */
    static Result measure(List<RendererSyncContext> contexts) throws InterruptedException {
        // A running application: the executor has started and every context has drained once.
        CountDownLatch warm = new CountDownLatch(contexts.size());
        contexts.forEach(ctx -> ctx.post(warm::countDown));
        assertThat(warm.await(10, TimeUnit.SECONDS)).as("warm-up posts ran").isTrue();
        CountDownLatch release = new CountDownLatch(1);
        try {
            for (int i = 0; i < BLOCKED; i++) {
                contexts.get(i).post(() -> {
                    try {
                        release.await(BLOCK_FOR.toMillis(), TimeUnit.MILLISECONDS); // a slow JDBC or HTTP call
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            }
            AtomicLongArray latencyNanos = new AtomicLongArray(POSTS);
            CountDownLatch ran = new CountDownLatch(POSTS);
            int others = contexts.size() - BLOCKED;
            for (int i = 0; i < POSTS; i++) {
                int index = i;
                long posted = System.nanoTime();
                contexts.get(BLOCKED + i % others).post(() -> {
                    latencyNanos.set(index, System.nanoTime() - posted);
                    ran.countDown();
                });
            }
            // Waits less than the blocked callbacks do, so a stalled executor fails here, not later.
            ran.await(BLOCK_FOR.toMillis() - 1_000, TimeUnit.MILLISECONDS);
            long[] done = new long[POSTS - (int) ran.getCount()];
            int n = 0;
            for (int i = 0; i < POSTS && n < done.length; i++) {
                long v = latencyNanos.get(i);
                if (v != 0) {
                    done[n++] = v;
                }
            }
            return new Result(n, Arrays.copyOf(done, n));
        } finally {
            release.countDown();
            for (RendererSyncContext ctx : contexts) {
                ctx.close();
            }
            for (RendererSyncContext ctx : contexts) {
                assertThat(ctx.awaitTermination(BLOCK_FOR.plusSeconds(5))).as("%s terminates", ctx).isTrue();
            }
        }
    }

    /** How many posts ran in time, and their post-to-run latencies. */
    record Result(int ran, long[] latencyNanos) {

        double p99Millis() {
            if (latencyNanos.length == 0) {
                return Double.POSITIVE_INFINITY;
            }
            long[] sorted = latencyNanos.clone();
            Arrays.sort(sorted);
            // p99 over all the posts made: one that never ran counts as slower than any that did.
            int rank = (int) Math.ceil(0.99 * POSTS) - 1;
            return rank >= sorted.length ? Double.POSITIVE_INFINITY : sorted[rank] / 1e6;
        }

        @Override
        public String toString() {
            long[] sorted = latencyNanos.clone();
            Arrays.sort(sorted);
            return ran + " of " + POSTS + " ran; p50 " + (sorted.length == 0 ? "-" : sorted[sorted.length / 2] / 1e6)
                    + " ms, p99 " + p99Millis() + " ms, max " + (sorted.length == 0 ? "-" : sorted[sorted.length - 1] / 1e6)
                    + " ms";
        }
    }
}
