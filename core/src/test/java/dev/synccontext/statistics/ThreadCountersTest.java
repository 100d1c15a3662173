package dev.synccontext.statistics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class ThreadCountersTest {

    @Test
    void countsFromManyThreadsAddUpExactlyWhileTheyRun() throws Exception {
        ThreadCounters counters = new ThreadCounters(2);
        int threads = 8;
        int perThread = 100_000;
        CountDownLatch done = new CountDownLatch(threads);
        CountDownLatch release = new CountDownLatch(1);
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(() -> {
                for (int i = 0; i < perThread; i++) {
                    counters.increment(0);
                    counters.add(1, 3);
                }
                done.countDown();
                try {
                    release.await(); // stay alive: the sum must read live rows, not only folded ones
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            thread.start();
            all.add(thread);
        }
        done.await();
        assertThat(counters.sum(0)).isEqualTo((long) threads * perThread);
        assertThat(counters.sum(1)).isEqualTo(3L * threads * perThread);
        release.countDown();
        for (Thread thread : all) {
            thread.join();
        }
        assertThat(counters.sum(0)).as("rows of ended threads are folded, never lost").isEqualTo((long) threads * perThread);
        assertThat(counters.rows()).isZero();
    }

    @Test
    void aThreadPerTaskDoesNotGrowTheRowsWithoutBound() throws Exception {
        ThreadCounters counters = new ThreadCounters(1);
        for (int i = 0; i < 1000; i++) {
            Thread thread = new Thread(() -> counters.increment(0));
            thread.start();
            thread.join();
        }
        assertThat(counters.rows()).isLessThanOrEqualTo(32);
        assertThat(counters.sum(0)).isEqualTo(1000);
    }
}
