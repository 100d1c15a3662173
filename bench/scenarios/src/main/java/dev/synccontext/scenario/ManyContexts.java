package dev.synccontext.scenario;

import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * {@code ManyContexts}: 10,000 contexts (one per session, say), each gets 10 posts from 2 producer
 * threads (the caller and a {@linkplain SecondCaller second thread}, 5 each, round-robin over the
 * contexts); the post that brings a shared counter to zero completes a future that the caller joins.
 * One operation is one post. Each post checks that it runs after its producer's earlier posts to the
 * same context (per-producer FIFO); after the join the scenario verifies the counter is exactly zero
 * and no post ran out of order. The 100,000 steps are preallocated on first use and kept by the
 * instance, so the loop allocates only what the contexts allocate.
 *
 * <p>It needs {@link #contextsPerInvocation()} contexts: call {@link #runOnce(List)}.
 */
final class ManyContexts extends LoopScenario {

    static final String NAME = "ManyContexts";
    static final int CONTEXTS = 10_000;
    static final int PRODUCERS = 2;
    static final int POSTS_PER_PRODUCER = 5;
    static final int POSTS = CONTEXTS * PRODUCERS * POSTS_PER_PRODUCER;

    private final Duration patience;
    private final int contexts;
    /** steps[producer][k * contexts + c]: the k-th post of that producer to context c. */
    private Runnable @Nullable [][] steps;
    /** Next expected k per (context, producer); each slot is only touched inside its context. */
    private int @Nullable [] nextSeq;
    private final AtomicInteger remaining = new AtomicInteger();
    private final AtomicInteger outOfOrder = new AtomicInteger();
    private volatile @Nullable CompletableFuture<Void> drained;
    private @Nullable List<? extends RendererSyncContext> current;

    ManyContexts(int contexts, Duration patience) {
        super(NAME, contexts * PRODUCERS * POSTS_PER_PRODUCER, patience);
        this.contexts = contexts;
        this.patience = patience;
    }

    @Override
    public int contextsPerInvocation() {
        return contexts;
    }

    @Override
    public void runOnce(List<? extends RendererSyncContext> given) throws Exception {
        if (given.size() != contexts) {
            throw new IllegalArgumentException(NAME + " needs exactly " + contexts + " contexts, got "
                    + given.size());
        }
        current = given;
        try {
            runOnce(given.get(0));
        } finally {
            current = null;
        }
    }

    @Override
    void loop(RendererSyncContext first) throws Exception {
        List<? extends RendererSyncContext> ctxs = current;
        if (ctxs == null) {
            throw new UnsupportedOperationException(NAME + " runs on " + contexts
                    + " contexts at once; call runOnce(List) with contextsPerInvocation() fresh contexts");
        }
        Runnable[][] prepared = steps;
        int[] seqs = nextSeq;
        if (prepared == null || seqs == null) { // first use: the two are set together
            prepared = newSteps();
            seqs = new int[contexts * PRODUCERS];
            steps = prepared;
            nextSeq = seqs;
        }
        Arrays.fill(seqs, 0);
        outOfOrder.set(0);
        remaining.set(operationsPerInvocation());
        CompletableFuture<Void> done = new CompletableFuture<>();
        drained = done;
        Runnable[] secondSteps = prepared[1];
        Future<Void> second = SecondCaller.start(() -> {
            produce(ctxs, secondSteps);
            return null;
        });
        produce(ctxs, prepared[0]);
        try {
            second.get(patience.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException | ExecutionException producerFailed) {
            throw new IllegalStateException(NAME + ": the second producer failed or stalled", producerFailed);
        }
        await(done, first, "the shared counter to reach zero");
        verify(remaining.get() == 0 && outOfOrder.get() == 0, first,
                "counter 0 and every post in its producer's order",
                "counter " + remaining.get() + ", " + outOfOrder.get() + " out of order");
    }

    private void produce(List<? extends RendererSyncContext> ctxs, Runnable[] mine) {
        for (int k = 0; k < POSTS_PER_PRODUCER; k++) {
            for (int c = 0; c < contexts; c++) {
                ctxs.get(c).post(mine[k * contexts + c]);
            }
        }
    }

    private Runnable[][] newSteps() {
        Runnable[][] steps = new Runnable[PRODUCERS][contexts * POSTS_PER_PRODUCER];
        for (int p = 0; p < PRODUCERS; p++) {
            for (int k = 0; k < POSTS_PER_PRODUCER; k++) {
                for (int c = 0; c < contexts; c++) {
                    int slot = c * PRODUCERS + p;
                    int seq = k;
                    steps[p][k * contexts + c] = () -> step(slot, seq);
                }
            }
        }
        return steps;
    }

    @SuppressWarnings("NullAway") // loop() sets nextSeq and drained before its first post
    private void step(int slot, int seq) {
        if (nextSeq[slot]++ != seq) {
            outOfOrder.incrementAndGet();
        }
        if (remaining.decrementAndGet() == 0) {
            drained.complete(null);
        }
    }
}
