package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.micrometer.ExecutorMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The default executor's statistics (and the meters over them) follow its threads through their states:
 * running a drain, blocked in one, idle; compensations and the cap are counted. Each state is driven by
 * tasks that wait on latches, and every wait is a poll with a deadline on the state itself.
 */
class ExecutorStatisticsTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @Test
    void theDefaultExecutorHasStatisticsWithItsDocumentedCap() {
        assertThat(RendererSyncContext.defaultExecutor()).isInstanceOf(ExecutorStatistics.class);
        ExecutorStatistics shared = (ExecutorStatistics) RendererSyncContext.defaultExecutor();
        int cpus = Runtime.getRuntime().availableProcessors();
        assertThat(shared.maxThreads()).isEqualTo(Math.max(256, 16 * cpus));
        assertThat(shared.parallelism()).isEqualTo(cpus);
    }

    @Test
    void aTaskShorterThanTheStuckThresholdCountsAsRunningThenItsThreadAsIdle() {
        // A 10 s tick: the monitor takes a task as stuck only after 1.25 s (tick / 8), so a task that
        // the test releases at once is seen running, never blocked.
        ElasticExecutor pool = new ElasticExecutor("stats-running-", 2, 4, 5_000 * MS, 10_000 * MS, 20_000);
        MeterRegistry meters = metersOf(pool);
        CountDownLatch release = new CountDownLatch(1);
        startWaitingTasks(pool, 1, release);
        assertThat(pool.runningThreads()).as("the thread running the task: %s", pool).isEqualTo(1);
        assertThat(gauge(meters, "running")).as("synccontext.executor.threads{state=running}").isEqualTo(1);
        assertThat(pool.blockedThreads()).as("blocked threads: %s", pool).isZero();

        release.countDown();
        awaitCondition(() -> pool.runningThreads() == 0 && pool.idleThreads() == pool.threads(),
                () -> "the thread is idle once its task ended: " + pool);
        assertThat(gauge(meters, "idle")).as("synccontext.executor.threads{state=idle}").isEqualTo(pool.threads());
        assertThat(pool.capReached()).as("cap reached").isZero();
    }

    @Test
    void blockedTasksAreCountedAsBlockedAndWorkBeyondTheCapCountsAsCapReached() {
        ElasticExecutor pool = new ElasticExecutor("stats-cap-", 1, 2, 5_000 * MS, 2 * MS, 20_000);
        MeterRegistry meters = metersOf(pool);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch thirdRan = new CountDownLatch(1);
        try {
            startWaitingTasks(pool, 2, release); // the second needed a compensation: the first was stuck
            awaitCondition(() -> pool.blockedThreads() == 2, () -> "both tasks counted blocked: " + pool);
            assertThat(pool.compensations()).as("compensations").isGreaterThanOrEqualTo(1);
            assertThat(pool.runningThreads()).as("running threads").isZero();
            assertThat(pool.capReached()).as("cap reached before any work waited for a thread").isZero();

            pool.execute(thirdRan::countDown);
            assertThat(pool.capReached()).as("the third task found both threads blocked at the cap of 2: %s", pool)
                    .isGreaterThanOrEqualTo(1);
            assertThat(pool.queuedTasks()).as("the third task waits in the queue").isEqualTo(1);
            assertThat(pool.threads()).as("no thread beyond the cap").isEqualTo(2);
            assertThat(gauge(meters, "blocked")).as("synccontext.executor.threads{state=blocked}").isEqualTo(2);
            assertThat(meters.get("synccontext.executor.threads.max").gauge().value()).isEqualTo(2);
            assertThat(meters.get("synccontext.executor.queued").gauge().value()).isEqualTo(1);
            assertThat(meters.get("synccontext.executor.cap.reached").functionCounter().count())
                    .isEqualTo(pool.capReached());
            assertThat(meters.get("synccontext.executor.compensations").functionCounter().count())
                    .isEqualTo(pool.compensations());
        } finally {
            release.countDown();
        }
        Occupier.awaitUninterruptibly(thirdRan);
        awaitCondition(() -> pool.blockedThreads() == 0 && pool.runningThreads() == 0 && pool.idleThreads() == 2,
                () -> "both threads idle after the release: " + pool);
        assertThat(pool.queuedTasks()).isZero();
    }

    private static double gauge(MeterRegistry meters, String state) {
        return meters.get("synccontext.executor.threads").tag("state", state).gauge().value();
    }

    private static void awaitCondition(BooleanSupplier condition, Supplier<String> what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what.get());
            }
            LockSupport.parkNanos(MS / 10); // poll interval, bounded by the deadline
        }
    }

    /** Runs {@code tasks} tasks on {@code pool} that wait for {@code release}; returns once all have started. */
    private static void startWaitingTasks(ElasticExecutor pool, int tasks, CountDownLatch release) {
        CountDownLatch started = new CountDownLatch(tasks);
        for (int i = 0; i < tasks; i++) {
            pool.execute(() -> {
                started.countDown();
                Occupier.awaitUninterruptibly(release);
            });
        }
        Occupier.awaitUninterruptibly(started);
    }

    /** A registry with {@code pool}'s executor metrics bound to it. */
    private static MeterRegistry metersOf(ElasticExecutor pool) {
        MeterRegistry meters = new SimpleMeterRegistry();
        new ExecutorMetrics(pool).bindTo(meters);
        return meters;
    }
}
