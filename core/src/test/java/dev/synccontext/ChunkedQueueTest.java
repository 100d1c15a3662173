package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.testing.NoThreadLeftStuck;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The queue's own rules, deterministically ({@link CallbackQueue}, {@link QueueChunk}): a context keeps
 * no chunk once its queue ran dry (an idle context holds no array, and its state is 0 again, which the
 * inline path's one CAS needs), and the 31-bit sequence may wrap while work stays queued. The races are
 * in {@code stress.ChunkedQueueStressTest}.
 */
class ChunkedQueueTest {

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.privateLookupIn(ContextState.class, MethodHandles.lookup())
                    .findVarHandle(ContextState.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @RegisterExtension
    final NoThreadLeftStuck pools = new NoThreadLeftStuck();

    private final ExecutorService pool = pools.fixedPool(2);

    @Test
    void aQueueThatRanDryKeepsNoChunkAndTheStateIsZeroAgain() throws Exception {
        SyncContext ctx = (SyncContext) RendererSyncContext.create(pool);
        List<Integer> order = new ArrayList<>();
        try (Occupier occupier = Occupier.occupy(ctx)) {
            for (int i = 0; i < 5_000; i++) { // chunks of 16, 32, ... 1,024 slots, several of the largest
                int n = i;
                ctx.post(() -> order.add(n));
            }
            assertThat(ctx.headChunk).as("the first chunk, created by the first queued post").isNotNull();
        }
        ctx.invokeAsync(() -> { }).get(30, TimeUnit.SECONDS); // queued behind the posts, or inline after them
        awaitIdle(ctx);

        assertThat(order).hasSize(5_000);
        for (int i = 0; i < order.size(); i++) {
            assertThat(order.get(i)).isEqualTo(i);
        }
        assertThat(ctx.headChunk).as("head chunk of an idle context").isNull();
        assertThat(tailChunk(ctx)).as("tail hint of an idle context").isNull();
        assertThat(ctx.headIndex).isZero();
    }

    @Test
    void theSequenceWrapsWhileWorkStaysQueuedAndOrderHolds() throws Exception {
        SyncContext ctx = (SyncContext) RendererSyncContext.create(pool);
        List<Integer> order = new ArrayList<>();
        CompletableFuture<Void> last;
        try (Occupier occupier = Occupier.occupy(ctx)) {
            // The occupier holds the context inline (count 1, nothing queued): move the sequence to 100
            // short of the ring's end, as if 2^31 - 100 callbacks had been queued since the queue was empty.
            long s = (long) STATE.getVolatile(ctx);
            assertThat(s & SyncContext.CHUNKED).isZero();
            // The owner's next index moves with it (the give-up that restarts the sequence resets both).
            int start = QueueChunk.RING - 99;
            ctx.headIndex = start;
            STATE.setVolatile(ctx, s + ((long) start << SyncContext.SEQUENCE_SHIFT));
            for (int i = 0; i < 3_000; i++) {
                int n = i;
                ctx.post(() -> order.add(n));
            }
            assertThat(ctx.queueDepth()).isEqualTo(3_000);
            last = ctx.invokeAsync(() -> { });
        }
        last.get(30, TimeUnit.SECONDS);
        awaitIdle(ctx);

        assertThat(order).hasSize(3_000);
        for (int i = 0; i < order.size(); i++) {
            assertThat(order.get(i)).as("callback at position %d", i).isEqualTo(i);
        }
    }

    /** The drain gives the context up just after the last callback returns: wait for the state word to say so. */
    private static void awaitIdle(SyncContext ctx) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while ((long) STATE.getVolatile(ctx) != 0) {
            assertThat(System.nanoTime()).as("context idle within 30 s").isLessThan(deadline);
            Thread.sleep(1); // polling a condition with a deadline, not a guess at a duration
        }
    }

    private static Object tailChunk(SyncContext ctx) throws ReflectiveOperationException {
        return MethodHandles.privateLookupIn(CallbackQueue.class, MethodHandles.lookup())
                .findVarHandle(CallbackQueue.class, "tailChunk", QueueChunk.class).getVolatile(ctx);
    }
}
