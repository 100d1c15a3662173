package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.testing.NoThreadLeftStuck;
import java.lang.management.ManagementFactory;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The performance design, checked in bytes (not time): the idle path allocates nothing, a queued call
 * allocates one node, a queued post only its share of a chunk, an idle context is small. Bytes come from HotSpot's per-thread allocation
 * counter, after a warm-up so that the JIT's escape analysis has had its chance.
 */
class AllocationTest {

    private static final int WARMUP = 200_000;
    private static final int MEASURED = 100_000;

    @RegisterExtension
    final NoThreadLeftStuck pools = new NoThreadLeftStuck();

    private final ExecutorService pool = pools.fixedPool(2);
    private com.sun.management.ThreadMXBean threads;

    @BeforeEach
    void probe() {
        Assumptions.assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean,
                "this JVM has no per-thread allocation counter");
        threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    }

    @Test
    void aSuccessfulIdleInvokeAsyncAllocatesNothing() {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        Runnable callback = () -> { };
        for (int i = 0; i < WARMUP; i++) {
            ctx.invokeAsync(callback);
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < MEASURED; i++) {
            ctx.invokeAsync(callback);
        }
        double perCall = (threads.getCurrentThreadAllocatedBytes() - before) / (double) MEASURED;

        assertThat(perCall).as("bytes per idle invokeAsync(Runnable)").isLessThan(1.0);
    }

    @Test
    void aQueuedInvokeAsyncAllocatesOneNodeThatIsAlsoTheFuture() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        Runnable callback = () -> { };
        double perCall;
        CompletableFuture<Void> last;
        try (Occupier occupier = Occupier.occupy(ctx)) {
            for (int i = 0; i < WARMUP / 10; i++) {
                ctx.invokeAsync(callback);
            }
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < MEASURED / 10 - 1; i++) {
                ctx.invokeAsync(callback);
            }
            last = ctx.invokeAsync(callback);
            perCall = (threads.getCurrentThreadAllocatedBytes() - before) / (double) (MEASURED / 10);
        }
        last.get(30, TimeUnit.SECONDS);
        // One QueuedCall: 12-byte header + 7 reference/int fields = 40 bytes with compressed oops.
        assertThat(perCall).as("bytes per queued invokeAsync(Runnable)").isLessThanOrEqualTo(48.0);
    }

    @Test
    void aQueuedPostAllocatesOnlyItsShareOfAChunk() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        Runnable callback = () -> { };
        double perCall;
        try (Occupier occupier = Occupier.occupy(ctx)) {
            for (int i = 0; i < WARMUP / 10; i++) {
                ctx.post(callback);
            }
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < MEASURED / 10; i++) {
                ctx.post(callback);
            }
            perCall = (threads.getCurrentThreadAllocatedBytes() - before) / (double) (MEASURED / 10);
        }
        CompletableFuture<Void> barrier = new CompletableFuture<>();
        ctx.post(() -> barrier.complete(null));
        barrier.get(30, TimeUnit.SECONDS);
        // No node: the slot holds the runnable. 10,000 posts fill chunks of 16, 32, ... 1,024 slots
        // (4 bytes each with compressed oops, plus 40 per chunk): about 4.2 bytes per post.
        assertThat(perCall).as("bytes per post (the user's runnable excluded)").isLessThanOrEqualTo(8.0);
    }

    @Test
    void anIdleContextBuiltFromASharedBuilderIsOneObjectOfUnder144Bytes() {
        RendererSyncContext.Builder builder = RendererSyncContext.builder().name("session").executor(pool);
        RendererSyncContext[] keep = new RendererSyncContext[10_000];
        for (int i = 0; i < keep.length; i++) {
            keep[i] = builder.build(); // warm-up
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < keep.length; i++) {
            keep[i] = builder.build();
        }
        double perContext = (threads.getCurrentThreadAllocatedBytes() - before) / (double) keep.length;

        // One 136-byte object (the owner fields, their 64-byte pad, the producer fields; see OwnerSide) and
        // a few bytes of the JVM's own spread over the 10,000 (Java 25 counted 136.006): a second object
        // per context would add at least 16.
        assertThat(perContext).as("bytes per idle context").isLessThan(144.0);
        assertThat(keep[keep.length - 1].queueDepth()).isZero();
    }
}
