package dev.synccontext.lincheck;

import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the model-checked scenarios write down, and the invariants checked once every thread is done.
 *
 * <p>The fields that callbacks touch are plain on purpose: under the model checker every plain read
 * and write is a point where another thread may be scheduled, so two callbacks that overlap show up
 * as {@code inside == 2}, and a lost update as a wrong {@code runs[id]}.
 */
final class Ledger {

    static final int MAX_TASKS = 256;
    static final int MAX_PRODUCERS = 8;

    final RendererSyncContext ctx;
    private final AtomicInteger nextId = new AtomicInteger();
    private final int[] runs = new int[MAX_TASKS];
    private final boolean[] reported = new boolean[MAX_TASKS];
    private final int[] submittedSeq = new int[MAX_PRODUCERS];
    private final int[] lastRunSeq = new int[MAX_PRODUCERS];
    private final ConcurrentLinkedQueue<Submitted> futures = new ConcurrentLinkedQueue<>();
    private int inside;
    private volatile String violation;

    Ledger(RendererSyncContext ctx) {
        this.ctx = ctx;
    }

    /** A callback for {@code producer} (its FIFO is checked), or for a nested call when producer is -1. */
    Task task(int producer) {
        int seq = producer >= 0 ? ++submittedSeq[producer] : 0;
        return new Task(nextId.getAndIncrement(), producer, seq);
    }

    // The operations several checks share: one call on the context, its outcome written down, then the
    // caller checked to be outside the context again.

    void invokeAsync(int producer) {
        Task task = task(producer);
        future(task, ctx.invokeAsync(task));
        outside("invokeAsync");
    }

    /** A callback for {@code producer} that, while it runs, calls the context again through {@code nestedCalls}. */
    void invokeAsyncNesting(int producer, String operation, Runnable nestedCalls) {
        Task outer = task(producer);
        future(outer, ctx.invokeAsync(() -> {
            outer.run();
            nestedCalls.run();
        }));
        outside(operation);
    }

    void post(int producer) {
        Task task = task(producer);
        try {
            ctx.post(task);
        } catch (RejectedExecutionException closed) {
            reported(task);
        }
        outside("post");
    }

    void close() {
        ctx.close();
        outside("close");
    }

    void closeNow() {
        reportedAll(ctx.closeNow());
        outside("closeNow");
    }

    void future(Task task, CompletableFuture<?> future) {
        futures.add(new Submitted(task, future));
    }

    void reported(Task task) {
        reported[task.id] = true;
    }

    void reportedAll(List<Runnable> aborted) {
        for (Runnable r : aborted) {
            reported((Task) r);
        }
    }

    void violation(String what) {
        if (violation == null) {
            violation = what;
        }
    }

    /** No thread may see the context's token outside a callback. */
    void outside(String after) {
        if (ctx.checkAccess()) {
            violation("checkAccess() true on " + Thread.currentThread().getName() + " after " + after);
        }
    }

    /** The invariants that must hold once every operation returned and every drain has run. */
    void validate() throws InterruptedException {
        if (violation != null) {
            throw new AssertionError(violation);
        }
        outside("validate");
        int ids = nextId.get();
        for (Submitted s : futures) {
            CompletableFuture<?> f = s.future;
            if (!f.isDone()) {
                throw new AssertionError("future of task " + s.task.id + " never completed; " + ctx);
            }
            boolean ran = runs[s.task.id] == 1;
            if (ran == f.isCompletedExceptionally()) {
                throw new AssertionError("task " + s.task.id + " ran " + runs[s.task.id]
                        + " time(s) but its future is " + f);
            }
            if (!ran) {
                reported[s.task.id] = true;
            }
        }
        for (int id = 0; id < ids; id++) {
            int accounted = runs[id] + (reported[id] ? 1 : 0);
            if (accounted != 1) {
                throw new AssertionError("task " + id + " ran " + runs[id] + " time(s) and was reported "
                        + (reported[id] ? "once" : "never") + ": it must be exactly one of the two; " + ctx);
            }
        }
        if (ctx.queueDepth() != 0) {
            throw new AssertionError("queueDepth() is " + ctx.queueDepth() + " after everything ran; " + ctx);
        }
        if (ctx.isClosed() && !ctx.awaitTermination(Duration.ZERO)) {
            throw new AssertionError("closed and idle, yet not terminated: " + ctx);
        }
    }

    private record Submitted(Task task, CompletableFuture<?> future) {
    }

    /** A callback that checks mutual exclusion, access and per-producer FIFO, and counts its run. */
    final class Task implements Runnable {
        final int id;
        final int producer;
        final int seq;

        Task(int id, int producer, int seq) {
            this.id = id;
            this.producer = producer;
            this.seq = seq;
        }

        @Override
        public void run() {
            if (!ctx.checkAccess()) {
                violation("task " + id + " ran without checkAccess()");
            }
            if (producer < 0) {
                runs[id]++; // nested: runs inside its caller's callback, by design
                return;
            }
            if (++inside != 1) {
                violation("task " + id + " overlapped another callback (inside = " + inside + ")");
            }
            if (seq <= lastRunSeq[producer]) {
                violation("FIFO broken for producer " + producer + ": seq " + seq + " ran after "
                        + lastRunSeq[producer]);
            }
            lastRunSeq[producer] = seq;
            runs[id]++;
            if (!ctx.checkAccess()) {
                violation("task " + id + " lost checkAccess() while running");
            }
            inside--;
        }
    }
}
