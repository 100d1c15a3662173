package dev.synccontext.stress;

import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A randomized run of every entry point from several producer threads against a set of contexts
 * ("lanes") sharing one small executor, with the bookkeeping that proves the contract afterwards.
 *
 * <p>Every callback is a {@link Task} with a global id. It mutates its lane's plain (non-atomic)
 * counter, checks that no other callback of the lane is inside, that its producer's callbacks on
 * this lane run in submission order, that it holds {@code checkAccess()}, and that it runs either
 * on its own producer's thread or on a drain thread, never on another caller's. At the end each
 * id must have run exactly once or been reported exactly once (rejected at the call, a failed or
 * cancelled future, a post handed back by {@code closeNow()}), every future must be complete, and
 * each lane's plain counter must equal its count of callbacks that ran.
 *
 * <p>Now and then a producer closes a lane ({@code close()} or {@code closeNow()}) and puts a fresh
 * context in its slot, so closing races with submissions from the other producers.
 */
final class MixedLoad {

    static final String DRAIN_THREAD_PREFIX = "stress-drain-";
    private static final int HOT_LANES = 8;
    /** Not a performance bound: only how long to wait before calling a thread or context stuck. */
    private static final long HANG_GUARD_SECONDS = Long.getLong("stress.hangGuardSeconds", 120);

    final long seed;
    final int producers;
    final int opsPerProducer;
    final int laneCount;
    /** One op in this many closes a lane; 0 never. */
    final int closeEvery;

    private final Executor executor;
    /** The pool this load made for itself (shut down after the run), or null if it was given one. */
    private final ExecutorService ownExecutor;
    private final String drainThreadPrefix;
    private final AtomicReferenceArray<Lane> slots;
    private final ConcurrentLinkedQueue<Lane> allLanes = new ConcurrentLinkedQueue<>();
    private final AtomicInteger nextId = new AtomicInteger();
    private final AtomicIntegerArray runs;
    private final AtomicIntegerArray reported;
    private final AtomicReferenceArray<CompletableFuture<?>> futures;
    private final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
    private final AtomicInteger violationCount = new AtomicInteger();
    private final Thread[] producerThreads;

    final AtomicLong opsDone = new AtomicLong();
    final AtomicLong closes = new AtomicLong();
    final AtomicLong injectedFailures = new AtomicLong();

    MixedLoad(long seed, int producers, int opsPerProducer, int laneCount, int closeEvery) {
        this(seed, producers, opsPerProducer, laneCount, closeEvery, null, DRAIN_THREAD_PREFIX);
    }

    /**
     * @param sharedExecutor where the lanes drain, left running afterwards; null for a 2-thread pool of
     *     this load's own (its threads named {@value #DRAIN_THREAD_PREFIX}N), shut down afterwards
     * @param drainThreadPrefix how the names of the executor's threads begin (posts must run on them)
     */
    MixedLoad(long seed, int producers, int opsPerProducer, int laneCount, int closeEvery, Executor sharedExecutor,
            String drainThreadPrefix) {
        this.seed = seed;
        this.producers = producers;
        this.opsPerProducer = opsPerProducer;
        this.laneCount = laneCount;
        this.closeEvery = closeEvery;
        this.drainThreadPrefix = drainThreadPrefix;
        AtomicInteger threadNo = new AtomicInteger();
        this.ownExecutor = sharedExecutor != null ? null : Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, DRAIN_THREAD_PREFIX + threadNo.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        this.executor = sharedExecutor != null ? sharedExecutor : ownExecutor;
        this.slots = new AtomicReferenceArray<>(laneCount);
        for (int i = 0; i < laneCount; i++) {
            slots.set(i, newLane(i));
        }
        int maxTasks = producers * opsPerProducer * 4 + 16;
        this.runs = new AtomicIntegerArray(maxTasks);
        this.reported = new AtomicIntegerArray(maxTasks);
        this.futures = new AtomicReferenceArray<>(maxTasks);
        this.producerThreads = new Thread[producers];
    }

    private Lane newLane(int slot) {
        Lane lane = new Lane(slot, producers);
        lane.ctx = RendererSyncContext.builder()
                .name("stress-" + slot + "-" + allLanes.size())
                .executor(executor)
                .maxBatch(1 + (int) (Math.abs(seed + slot) % 16))
                .blockedThreshold(Duration.ZERO)
                .unhandledExceptionHandler((ctx, failure) -> {
                    if (failure instanceof Injected) {
                        lane.handledFailures.incrementAndGet();
                    } else {
                        violation("unexpected failure reached the handler of " + ctx.name() + ": " + failure);
                    }
                })
                .build();
        allLanes.add(lane);
        return lane;
    }

    /** Runs the producers to completion, closes everything, waits for it; returns the findings. */
    Result run() throws InterruptedException {
        long start = System.nanoTime();
        CountDownLatch go = new CountDownLatch(1);
        for (int p = 0; p < producers; p++) {
            int producer = p;
            Thread t = new Thread(() -> {
                try {
                    go.await();
                    produce(producer, new SplittableRandom(seed * 31 + producer));
                } catch (Throwable failure) {
                    violation("producer " + producer + " died: " + failure);
                }
            }, "stress-producer-" + p);
            t.setDaemon(true);
            producerThreads[p] = t;
            t.start();
        }
        go.countDown();
        long producersDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_GUARD_SECONDS);
        for (Thread t : producerThreads) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(producersDeadline - System.nanoTime())));
            if (t.isAlive()) {
                violation("producer " + t.getName() + " is stuck: " + describe(t));
            }
        }
        for (Lane lane : allLanes) {
            lane.ctx.close();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_GUARD_SECONDS);
        for (Lane lane : allLanes) {
            Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
            if (!lane.ctx.awaitTermination(left)) {
                violation("context " + lane.ctx + " did not terminate");
            }
        }
        long elapsed = System.nanoTime() - start;
        if (ownExecutor != null) {
            ownExecutor.shutdownNow();
        }
        return verify(elapsed);
    }

    private void produce(int producer, SplittableRandom random) {
        Thread self = Thread.currentThread();
        for (int op = 0; op < opsPerProducer; op++) {
            // Half the operations go to a few hot contexts, so that many contexts are contended.
            int slot = random.nextBoolean() ? random.nextInt(Math.min(HOT_LANES, laneCount)) : random.nextInt(laneCount);
            Lane lane = slots.get(slot);
            RendererSyncContext ctx = lane.ctx;
            if (closeEvery > 0 && random.nextInt(closeEvery) == 0) {
                closeLane(slot, lane, random.nextBoolean());
                opsDone.incrementAndGet();
                continue;
            }
            boolean fail = random.nextInt(40) == 0;
            int kind = random.nextInt(100);
            Task task = newTask(lane, producer, self, fail, kind < 20 ? Kind.POST : Kind.OTHER);
            if (kind < 20) {
                try {
                    ctx.post(task);
                } catch (RejectedExecutionException closed) {
                    reported.incrementAndGet(task.id);
                }
            } else if (kind < 45) {
                futures.set(task.id, ctx.invokeAsync((Runnable) task));
            } else if (kind < 55) {
                futures.set(task.id, ctx.invokeAsync(() -> {
                    task.run();
                    return task.id;
                }));
            } else if (kind < 65) {
                CompletableFuture<Integer> stage = new CompletableFuture<>();
                boolean completeLater = random.nextBoolean();
                futures.set(task.id, ctx.invokeAsyncStage(() -> {
                    task.run();
                    if (!completeLater) {
                        stage.complete(task.id);
                    }
                    return stage;
                }));
                stage.complete(task.id);
            } else if (kind < 80) {
                try {
                    ctx.send(task);
                } catch (RejectedExecutionException closedOrAborted) {
                    reported.incrementAndGet(task.id);
                } catch (Injected expected) {
                    // thrown back by send, as specified
                }
            } else {
                futures.set(task.id, ctx.invokeAsync(() -> nestedBody(lane, task)));
            }
            if (ctx.checkAccess() || RendererSyncContext.current().isPresent()) {
                violation("producer " + producer + " still holds access to " + ctx.name() + " after its call");
            }
            opsDone.incrementAndGet();
        }
    }

    /** A callback that calls its own context again: nested invokeAsync, nested send, and a post. */
    private void nestedBody(Lane lane, Task outer) {
        outer.run();
        RendererSyncContext ctx = lane.ctx;
        Thread self = Thread.currentThread();
        Task inner = newTask(lane, -1, self, false, Kind.NESTED);
        CompletableFuture<Void> f = ctx.invokeAsync((Runnable) inner);
        futures.set(inner.id, f);
        if (!f.isDone()) {
            violation("nested invokeAsync on " + ctx.name() + " did not run at once");
        }
        Task innerSend = newTask(lane, -1, self, false, Kind.NESTED);
        ctx.send(innerSend);
        Task innerPost = newTask(lane, -1, self, false, Kind.POST);
        try {
            ctx.post(innerPost);
        } catch (RejectedExecutionException closed) {
            reported.incrementAndGet(innerPost.id);
        }
        if (runs.get(innerPost.id) != 0) {
            violation("a post from inside " + ctx.name() + " ran inside the post call");
        }
    }

    private void closeLane(int slot, Lane lane, boolean now) {
        if (!slots.compareAndSet(slot, lane, newLane(slot))) {
            return;
        }
        closes.incrementAndGet();
        if (now) {
            for (Runnable aborted : lane.ctx.closeNow()) {
                reported.incrementAndGet(((Task) aborted).id);
            }
        } else {
            lane.ctx.close();
        }
    }

    private Task newTask(Lane lane, int producer, Thread submitter, boolean fail, Kind kind) {
        int seq = producer >= 0 ? ++lane.nextSeq[producer] : 0;
        return new Task(nextId.getAndIncrement(), lane, producer, seq, submitter, fail, kind);
    }

    void violation(String what) {
        if (violationCount.incrementAndGet() <= 20) {
            violations.add(what);
        }
    }

    private Result verify(long elapsedNanos) {
        int ids = nextId.get();
        long ran = 0;
        long reportedCount = 0;
        for (int id = 0; id < ids; id++) {
            int r = runs.get(id);
            CompletableFuture<?> f = futures.get(id);
            int rep = reported.get(id);
            if (f != null) {
                if (!f.isDone()) {
                    violation("future of task " + id + " never completed: " + f);
                    continue;
                }
                if (r == 0) {
                    Throwable cause = causeOf(f);
                    if (cause instanceof RejectedExecutionException || cause instanceof CancellationException) {
                        rep++;
                    } else {
                        violation("task " + id + " never ran, and its future says " + cause);
                    }
                } else if (f.isCompletedExceptionally() && !(causeOf(f) instanceof Injected)) {
                    violation("task " + id + " ran, yet its future failed with " + causeOf(f));
                }
            }
            if (r + rep != 1) {
                violation("task " + id + " ran " + r + " time(s) and was reported " + rep
                        + " time(s); exactly one of the two must be 1");
            }
            ran += r;
            reportedCount += rep;
        }
        long laneRuns = 0;
        for (Lane lane : allLanes) {
            if (lane.counter != lane.ran.get()) {
                violation("lane " + lane.ctx.name() + ": plain counter " + lane.counter + " != " + lane.ran.get()
                        + " callbacks run: two callbacks overlapped or a write was not visible");
            }
            if (lane.handledFailures.get() != lane.failedPosts.get()) {
                violation("lane " + lane.ctx.name() + ": " + lane.failedPosts.get() + " posts failed but the handler saw "
                        + lane.handledFailures.get());
            }
            if (lane.ctx.unhandledExceptionCount() != lane.failedPosts.get()) {
                violation("lane " + lane.ctx.name() + ": unhandledExceptionCount() " + lane.ctx.unhandledExceptionCount()
                        + " != failed posts " + lane.failedPosts.get());
            }
            if (lane.ctx.queueDepth() != 0) {
                violation("lane " + lane.ctx.name() + " terminated with queueDepth " + lane.ctx.queueDepth());
            }
            laneRuns += lane.ran.get();
        }
        if (laneRuns != ran) {
            violation("lanes counted " + laneRuns + " runs, tasks " + ran);
        }
        return new Result(List.copyOf(violations), violationCount.get(), ids, ran, reportedCount,
                opsDone.get(), closes.get(), injectedFailures.get(), allLanes.size(), elapsedNanos);
    }

    private static Throwable causeOf(CompletableFuture<?> f) {
        try {
            f.getNow(null);
            return null;
        } catch (CancellationException cancelled) {
            return cancelled;
        } catch (RuntimeException wrapped) {
            return wrapped.getCause() != null ? wrapped.getCause() : wrapped;
        }
    }

    private static String describe(Thread t) {
        StringBuilder b = new StringBuilder(t.getState().toString());
        for (StackTraceElement e : t.getStackTrace()) {
            b.append("\n\tat ").append(e);
        }
        return b.toString();
    }

    record Result(List<String> violations, int violationCount, int tasks, long ran, long reported, long ops,
            long closes, long injectedFailures, int contexts, long elapsedNanos) {

        String summary(long seed) {
            return String.format("seed=%d ops=%d tasks=%d ran=%d reported=%d lost=%d closes=%d contexts=%d"
                    + " injectedFailures=%d violations=%d time=%d ms", seed, ops, tasks, ran, reported,
                    tasks - ran - reported, closes, contexts, injectedFailures, violationCount,
                    elapsedNanos / 1_000_000);
        }
    }

    enum Kind { POST, NESTED, OTHER }

    /** One context with the plain state its callbacks mutate. */
    static final class Lane {
        final int slot;
        RendererSyncContext ctx;
        long counter;
        int inside;
        final int[] lastSeq;
        final int[] nextSeq;
        final AtomicLong ran = new AtomicLong();
        final AtomicLong failedPosts = new AtomicLong();
        final AtomicLong handledFailures = new AtomicLong();

        Lane(int slot, int producers) {
            this.slot = slot;
            this.lastSeq = new int[producers];
            this.nextSeq = new int[producers];
        }
    }

    /** Thrown on purpose by some callbacks. */
    static final class Injected extends RuntimeException {
        Injected(int id) {
            super("injected failure of task " + id, null, false, false);
        }
    }

    final class Task implements Runnable {
        final int id;
        final Lane lane;
        final int producer;
        final int seq;
        final Thread submitter;
        final boolean fail;
        final Kind kind;

        Task(int id, Lane lane, int producer, int seq, Thread submitter, boolean fail, Kind kind) {
            this.id = id;
            this.lane = lane;
            this.producer = producer;
            this.seq = seq;
            this.submitter = submitter;
            this.fail = fail;
            this.kind = kind;
        }

        @Override
        public void run() {
            RendererSyncContext ctx = lane.ctx;
            Thread self = Thread.currentThread();
            if (!ctx.checkAccess() || RendererSyncContext.current().orElse(null) != ctx) {
                violation("task " + id + " runs without access to " + ctx.name());
            }
            boolean drainThread = self.getName().startsWith(drainThreadPrefix);
            if (kind == Kind.POST && !drainThread) {
                violation("post " + id + " ran on " + self.getName() + ", not on the executor");
            } else if (self != submitter && !drainThread) {
                violation("task " + id + " of " + submitter.getName() + " ran on another caller's thread "
                        + self.getName());
            }
            if (kind != Kind.NESTED) {
                if (++lane.inside != 1) {
                    violation("task " + id + " overlapped another callback of " + ctx.name());
                }
                if (producer >= 0) {
                    if (seq <= lane.lastSeq[producer]) {
                        violation("FIFO broken on " + ctx.name() + " for producer " + producer + ": seq " + seq
                                + " ran after " + lane.lastSeq[producer]);
                    }
                    lane.lastSeq[producer] = seq;
                }
            }
            lane.counter++;
            lane.ran.incrementAndGet();
            runs.incrementAndGet(id);
            if (kind != Kind.NESTED) {
                lane.inside--;
            }
            if (fail) {
                injectedFailures.incrementAndGet();
                if (kind == Kind.POST) {
                    lane.failedPosts.incrementAndGet();
                }
                throw new Injected(id);
            }
        }
    }
}
