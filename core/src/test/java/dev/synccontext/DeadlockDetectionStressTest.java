package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * No false positive: a random workload whose callbacks block on other contexts' futures and sends, but
 * only ever on a context later in a fixed order than every context they hold (so no cycle can exist),
 * runs 10^6 operations without one {@link ContextDeadlockException}, while the graph records many waits.
 */
@Tag("system")
class DeadlockDetectionStressTest {

    private static final int CONTEXTS = 12;
    private static final int DRIVERS = 4;
    private static final long OPERATIONS = 1_000_000;
    private static final int MAX_DEPTH = 3;

    private final List<RendererSyncContext> contexts = new ArrayList<>();
    private final AtomicLong operations = new AtomicLong();
    private final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();

    @Test
    void anAcyclicBlockingWorkloadOfAMillionOperationsRaisesNoDeadlock() throws Exception {
        long seed = new Random().nextLong();
        System.out.println("DeadlockDetectionStressTest seed " + seed);
        for (int i = 0; i < CONTEXTS; i++) {
            contexts.add(RendererSyncContext.builder().name("order-" + i)
                    .unhandledExceptionHandler((ctx, failure) -> failures.add(failure)).build());
        }
        long recordedBefore = WaitGraph.recordedWaits();
        List<Thread> drivers = new ArrayList<>();
        for (int d = 0; d < DRIVERS; d++) {
            SplittableRandom random = new SplittableRandom(seed + d);
            Thread driver = new Thread(() -> drive(random), "driver-" + d);
            drivers.add(driver);
            driver.start();
        }
        for (Thread driver : drivers) {
            driver.join(TimeUnit.MINUTES.toMillis(5));
            assertThat(driver.isAlive()).as("driver %s still running (seed %s)", driver.getName(), seed).isFalse();
        }
        for (RendererSyncContext ctx : contexts) {
            ctx.close();
            assertThat(ctx.awaitTermination(java.time.Duration.ofSeconds(30))).isTrue();
        }
        long recorded = WaitGraph.recordedWaits() - recordedBefore;
        System.out.printf("%d operations, %d blocking waits recorded in the graph, seed %d%n", operations.get(),
                recorded, seed);
        assertThat(failures).as("deadlocks or other failures (seed %s)", seed).isEmpty();
        assertThat(operations.get()).isGreaterThanOrEqualTo(OPERATIONS);
        assertThat(recorded).as("blocking waits the graph checked (seed %s)", seed).isGreaterThan(1_000);
    }

    private void drive(SplittableRandom random) {
        List<CompletableFuture<?>> pending = new ArrayList<>();
        while (operations.get() < OPERATIONS) {
            int i = random.nextInt(CONTEXTS);
            long subSeed = random.nextLong();
            operations.incrementAndGet();
            pending.add(contexts.get(i).invokeAsync(() -> step(i, new SplittableRandom(subSeed), 1)));
            if (pending.size() == 16) {
                for (CompletableFuture<?> f : pending) {
                    try {
                        f.join();
                    } catch (Throwable t) {
                        failures.add(t);
                    }
                }
                pending.clear();
            }
        }
        pending.forEach(CompletableFuture::join);
    }

    /** A callback of context {@code i}: blocks, if at all, only on contexts after {@code i}. */
    private Object step(int i, SplittableRandom random, int depth) {
        if (depth > MAX_DEPTH || i == CONTEXTS - 1) {
            return i;
        }
        int j = i + 1 + random.nextInt(CONTEXTS - 1 - i);
        RendererSyncContext target = contexts.get(j);
        long subSeed = random.nextLong();
        operations.incrementAndGet();
        switch (random.nextInt(5)) {
            case 0:
                target.post(() -> step(j, new SplittableRandom(subSeed), depth + 1));
                return i;
            case 1:
                return target.invokeAsync(() -> step(j, new SplittableRandom(subSeed), depth + 1)).join();
            case 2:
                target.send(() -> step(j, new SplittableRandom(subSeed), depth + 1));
                return i;
            case 3:
                return target.invokeAsync(() -> step(j, new SplittableRandom(subSeed), depth + 1))
                        .thenApply(x -> x).handle((x, failure) -> x).join();
            default:
                try {
                    return target.invokeAsync(() -> step(j, new SplittableRandom(subSeed), depth + 1))
                            .get(30, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
        }
    }
}
