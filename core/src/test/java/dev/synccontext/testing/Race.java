package dev.synccontext.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Tasks that race each other: each runs on a thread of its own and waits at one gate, opened once every task is
 * submitted, so none begins before the last is handed to its thread.
 */
public final class Race {

    private Race() {
    }

    /**
     * Runs {@code racers} together and returns their results, in order, once each is done. The threads are
     * interrupted and stopped on the way out, also when the race fails.
     *
     * @throws ExecutionException a racer threw (the first in order that did)
     * @throws TimeoutException a racer was not done within {@code timeout} of the wait for it
     */
    public static <T> List<T> run(Duration timeout, List<? extends Callable<T>> racers)
            throws InterruptedException, ExecutionException, TimeoutException {
        CountDownLatch gate = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(racers.size());
        try {
            List<Future<T>> runs = new ArrayList<>();
            for (Callable<T> racer : racers) {
                runs.add(threads.submit(() -> {
                    gate.await();
                    return racer.call();
                }));
            }
            gate.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> run : runs) {
                results.add(run.get(timeout.toNanos(), TimeUnit.NANOSECONDS));
            }
            return results;
        } finally {
            threads.shutdownNow();
        }
    }
}
