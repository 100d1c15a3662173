package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/** The default executor's rules: blocked tasks are compensated, nothing is lost, threads retire. */
class ElasticExecutorTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private static ElasticExecutor pool(int parallelism, int maxThreads, long keepAliveNanos) {
        return new ElasticExecutor("elastic-test-", parallelism, maxThreads, keepAliveNanos, 2 * MS, 20_000);
    }

    @Test
    void aTaskQueuedBehindBlockedTasksGetsAnotherThread() throws Exception {
        ElasticExecutor pool = pool(1, 16, 10_000 * MS);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch blocked = new CountDownLatch(4);
        try {
            for (int i = 0; i < 4; i++) {
                pool.execute(() -> {
                    blocked.countDown();
                    Occupier.awaitUninterruptibly(release);
                });
            }
            assertThat(blocked.await(5, TimeUnit.SECONDS)).as("all four blocking tasks started: %s", pool).isTrue();
            CountDownLatch ran = new CountDownLatch(1);
            pool.execute(ran::countDown);
            assertThat(ran.await(5, TimeUnit.SECONDS)).as("a task behind blocked ones ran: %s", pool).isTrue();
            assertThat(pool.compensationCount()).as("stuck workers compensated").isGreaterThanOrEqualTo(1);
        } finally {
            release.countDown();
        }
        // Each worker the monitor stopped counting is counted again as its task returns, once.
        awaitCondition(() -> pool.awakeCount() == 0 && !pool.isSpinning(),
                () -> "no worker counted awake once all went idle: " + pool);
    }

    @Test
    void maxThreadsBoundsTheThreadsAndTheRestWaitsItsTurn() throws Exception {
        ElasticExecutor pool = pool(1, 3, 10_000 * MS);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger started = new AtomicInteger();
        for (int i = 0; i < 5; i++) {
            pool.execute(() -> {
                started.incrementAndGet();
                Occupier.awaitUninterruptibly(release);
            });
        }
        awaitCondition(() -> started.get() == 3, "three tasks started");
        // The monitor found all three stuck and wanted more threads for the two queued tasks.
        awaitCondition(() -> pool.compensationCount() >= 3, "the monitor compensated for the three");
        assertThat(pool.threadCount()).isEqualTo(3);
        assertThat(started).hasValue(3);
        release.countDown();
        awaitCondition(() -> started.get() == 5, "the two waiting tasks ran after the others returned");
    }

    @Test
    void aDrainThatResubmitsItselfRunsNextOnTheSameThreadWhenNothingElseWaits() throws Exception {
        ElasticExecutor pool = pool(2, 16, 10_000 * MS);
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        CountDownLatch done = new CountDownLatch(1);
        Runnable task = new Runnable() {
            int left = 1_000;

            @Override
            public void run() {
                threads.add(Thread.currentThread());
                if (--left > 0) {
                    pool.execute(this);
                } else {
                    done.countDown();
                }
            }
        };
        pool.execute(task);
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(threads).as("threads that ran the self-resubmitting task").hasSize(1);
    }

    @Test
    void aResubmittedTaskGoesBehindTasksThatWait() throws Exception {
        ElasticExecutor pool = pool(1, 1, 10_000 * MS);
        StringBuffer order = new StringBuffer();
        CountDownLatch done = new CountDownLatch(2);
        Runnable self = new Runnable() {
            int runs;

            @Override
            public void run() {
                order.append('s');
                if (runs++ == 0) {
                    pool.execute(() -> {
                        order.append('o');
                        done.countDown();
                    });
                    pool.execute(this); // resubmitted while 'o' waits: must not jump ahead of it
                } else {
                    done.countDown();
                }
            }
        };
        pool.execute(self);
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(order).hasToString("sos");
    }

    @Test
    void aDrainStepsBackOnlyWhileNoOtherTaskIsQueued() throws Exception {
        StepBackRule.assertStepsBackOnlyWhileNoOtherTaskIsQueued(pool(1, 1, 10_000 * MS));
    }

    @Test
    void idleThreadsRetireAndTheNextTaskStartsANewOne() throws Exception {
        ElasticExecutor pool = pool(2, 16, 30 * MS);
        CountDownLatch ran = new CountDownLatch(20);
        for (int i = 0; i < 20; i++) {
            pool.execute(ran::countDown);
        }
        assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
        awaitCondition(() -> pool.threadCount() == 0, "every idle thread retired");
        CountDownLatch again = new CountDownLatch(1);
        pool.execute(again::countDown);
        assertThat(again.await(5, TimeUnit.SECONDS)).as("a task after every thread retired: %s", pool).isTrue();
    }

    @Test
    void aThrowingTaskGoesToTheUncaughtHandlerAndTheWorkerGoesOn() throws Exception {
        ElasticExecutor pool = pool(1, 1, 10_000 * MS);
        pool.execute(() -> {
            throw new IllegalStateException("a task fails (injected)");
        });
        CountDownLatch after = new CountDownLatch(1);
        pool.execute(after::countDown);
        assertThat(after.await(5, TimeUnit.SECONDS)).isTrue();
        assertThatThrownBy(() -> pool.execute(null)).isInstanceOf(NullPointerException.class);
    }

    /**
     * A task that leaves its thread interrupted (the usual catch-and-re-interrupt) must not leave the
     * worker interrupted: parking would then return at once and the idle worker would spin for its
     * whole keep-alive, and the next task would start interrupted.
     */
    @Test
    void aTaskThatLeavesItsThreadInterruptedDoesNotLeaveTheWorkerSpinning() throws Exception {
        ElasticExecutor pool = pool(1, 1, 10_000 * MS);
        java.util.concurrent.CompletableFuture<Thread> worker = new java.util.concurrent.CompletableFuture<>();
        pool.execute(() -> {
            Thread.currentThread().interrupt();
            worker.complete(Thread.currentThread());
        });
        Thread thread = worker.get(5, TimeUnit.SECONDS);
        awaitCondition(() -> thread.getState() == Thread.State.TIMED_WAITING && !thread.isInterrupted(),
                "the worker parks, not interrupted");
        java.util.concurrent.CompletableFuture<Boolean> interruptedAtStart = new java.util.concurrent.CompletableFuture<>();
        pool.execute(() -> interruptedAtStart.complete(Thread.currentThread().isInterrupted()));
        assertThat(interruptedAtStart.get(5, TimeUnit.SECONDS)).as("next task starts interrupted").isFalse();
    }

    /**
     * Rule: work queued behind tasks that block gets a thread even when no task is submitted after
     * it. The hard case: a burst of tasks arrives while a worker spins for work (so the submitters
     * wake nobody and leave the burst to the spinner), the monitor is parked after a quiet spell, and
     * the first two tasks of the burst block. Busy threads, more than the CPUs, are running meanwhile,
     * so that the spinner is often descheduled for the whole burst, as happens to it under load; each
     * round fails if the rest of the burst does not run within 2 s while the first two still block. A
     * round whose set-up misses its window (a heavily loaded machine) is skipped; if all are, the test
     * is reported as skipped, not passed.
     */
    @Test
    void aBurstQueuedBehindBlockingTasksRunsWithoutLaterSubmissions() throws Exception {
        int rounds = 12;
        int exercised = 0;
        for (int round = 0; round < rounds; round++) {
            // A long spin against a short linger of the monitor (50 ticks of 1 ms), so that one worker
            // is spinning, and the others and the monitor are parked, when the burst comes.
            ElasticExecutor pool = new ElasticExecutor("elastic-burst-", 2, 16, 10_000 * MS, MS, 400 * MS);
            CountDownLatch bothStarted = new CountDownLatch(2);
            for (int i = 0; i < 2; i++) {
                pool.execute(() -> {
                    bothStarted.countDown();
                    Occupier.awaitUninterruptibly(bothStarted); // two workers exist once both have started
                });
            }
            assertThat(bothStarted.await(5, TimeUnit.SECONDS)).isTrue();
            if (!reachedWithin(300 * MS, () -> pool.monitorParked() && pool.isSpinning() && pool.parkedWorkers() >= 1)) {
                continue; // a heavily loaded machine missed the window: this round cannot show anything
            }
            exercised++;
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch rest = new CountDownLatch(20);
            AtomicBoolean stopBurners = new AtomicBoolean();
            List<Thread> burners = startBurners(2 * Runtime.getRuntime().availableProcessors(), stopBurners);
            try {
                for (int i = 0; i < 2; i++) {
                    pool.execute(() -> Occupier.awaitUninterruptibly(release));
                }
                for (int i = 0; i < 20; i++) {
                    pool.execute(rest::countDown);
                }
            } finally {
                stopBurners.set(true);
                for (Thread burner : burners) {
                    burner.join();
                }
            }
            try {
                assertThat(rest.await(2, TimeUnit.SECONDS))
                        .as("round %d: tasks left %d behind two blocked ones: %s", round, rest.getCount(), pool)
                        .isTrue();
            } finally {
                release.countDown();
            }
        }
        System.out.println("ElasticExecutorTest burst: " + exercised + " of " + rounds + " rounds set up in time");
        assumeTrue(exercised > 0, "no round found a worker spinning with the monitor parked in time");
    }

    /**
     * Stress: four submitters and tasks that submit more, with threads retiring after 1 ms idle, so
     * that submissions race parking, spinning, waking and retiring. Every task must run exactly once.
     */
    @RepeatedTest(5)
    void noTaskIsLostWhileWorkersParkSpinWakeAndRetire() throws Exception {
        ElasticExecutor pool = new ElasticExecutor("elastic-stress-", 2, 8, MS, MS, 2_000);
        int perSubmitter = 20_000;
        AtomicInteger runs = new AtomicInteger();
        CountDownLatch all = new CountDownLatch(4 * perSubmitter * 2);
        Thread[] submitters = new Thread[4];
        for (int t = 0; t < submitters.length; t++) {
            submitters[t] = new Thread(() -> {
                for (int i = 0; i < perSubmitter; i++) {
                    pool.execute(() -> {
                        runs.incrementAndGet();
                        all.countDown();
                        pool.execute(() -> {
                            runs.incrementAndGet();
                            all.countDown();
                        });
                    });
                    if ((i & 1023) == 0) {
                        LockSupport.parkNanos(2 * MS); // let workers go idle and retire now and then
                    }
                }
            });
            submitters[t].start();
        }
        for (Thread t : submitters) {
            t.join();
        }
        assertThat(all.await(30, TimeUnit.SECONDS)).as("tasks left: %d; %s", all.getCount(), pool).isTrue();
        assertThat(runs).hasValue(4 * perSubmitter * 2);
        // The count that decides whether a submitter wakes a worker must come back to zero once every
        // worker has parked: one left over is a worker the pool believes awake, and queued work would
        // wait for it.
        awaitCondition(() -> pool.awakeCount() == 0 && !pool.isSpinning(),
                () -> "no worker counted awake once all went idle: " + pool);
    }

    /** Polls {@code condition} until it holds or {@code nanos} pass; whether it held. */
    private static boolean reachedWithin(long nanos, BooleanSupplier condition) {
        long deadline = System.nanoTime() + nanos;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            LockSupport.parkNanos(MS / 10);
        }
        return true;
    }

    private static void awaitCondition(BooleanSupplier condition, String what) {
        awaitCondition(condition, () -> what);
    }

    private static void awaitCondition(BooleanSupplier condition, Supplier<String> what) {
        if (!reachedWithin(TimeUnit.SECONDS.toNanos(10), condition)) {
            throw new AssertionError("timed out waiting until " + what.get());
        }
    }

    /** Threads that keep the CPUs busy until {@code stop} is set. */
    private static List<Thread> startBurners(int count, AtomicBoolean stop) {
        List<Thread> burners = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Thread burner = new Thread(() -> {
                while (!stop.get()) {
                    Thread.onSpinWait();
                }
            }, "cpu-burner-" + i);
            burner.setDaemon(true);
            burner.start();
            burners.add(burner);
        }
        return burners;
    }
}
