package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** The pool's side of stepping back ({@link ElasticExecutor#stepBack}), driven deterministically. */
final class StepBackRule {

    private StepBackRule() {
    }

    /**
     * Holds the only thread of {@code pool} (a pool of one thread that starts no other) and queues a second task
     * behind it: while that task waits, the pool neither steps back nor counts one; once it has run, nothing is
     * queued, and the pool steps back and counts it.
     */
    static void assertStepsBackOnlyWhileNoOtherTaskIsQueued(ElasticExecutor pool) throws InterruptedException {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch queuedRan = new CountDownLatch(1);
        pool.execute(() -> {
            running.countDown();
            Occupier.awaitUninterruptibly(release);
        });
        assertThat(running.await(30, TimeUnit.SECONDS)).as("the blocker runs: %s", pool).isTrue();
        pool.execute(queuedRan::countDown); // its one thread is busy and it may start no other: queued
        try {
            assertThat(pool.stepBack()).as("stepped back while a task is queued: %s", pool).isFalse();
            assertThat(pool.stepBackCount()).as("step backs counted while a task is queued").isZero();
        } finally {
            release.countDown();
        }
        assertThat(queuedRan.await(30, TimeUnit.SECONDS)).as("the queued task ran: %s", pool).isTrue();
        // It was taken off the queue before it ran: nothing is queued now.
        assertThat(pool.stepBack()).as("stepped back with nothing queued: %s", pool).isTrue();
        assertThat(pool.stepBackCount()).isEqualTo(1);
    }
}
