package dev.synccontext.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * The threads that post at once in a benchmark with {@code producers}: producer 0 is the benchmark
 * thread, producers 1 to {@code producers - 1} are daemon threads {@code producer-N} started once per
 * trial, so an invocation starts no thread. One instance per trial; {@link #close()} stops the threads.
 */
final class ProducerThreads implements AutoCloseable {

    private final int producers;
    /** Null with one producer: the benchmark thread is then the only one. */
    private final ExecutorService others;

    ProducerThreads(int producers) {
        this.producers = producers;
        AtomicInteger ids = new AtomicInteger();
        others = producers == 1 ? null : Executors.newFixedThreadPool(producers - 1, task -> {
            Thread t = new Thread(task, "producer-" + ids.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Runs {@code produce} for every producer at once, producer 0 on the calling thread, and returns once
     * every producer has returned; one that throws, or has not returned within {@code patienceSeconds}
     * after producer 0, fails the call.
     */
    void run(IntConsumer produce, long patienceSeconds) throws Exception {
        List<Future<?>> started = new ArrayList<>(producers - 1);
        for (int p = 1; p < producers; p++) {
            int producer = p;
            started.add(others.submit(() -> produce.accept(producer)));
        }
        produce.accept(0);
        for (Future<?> producer : started) {
            producer.get(patienceSeconds, TimeUnit.SECONDS);
        }
    }

    @Override
    public void close() {
        if (others != null) {
            others.shutdownNow();
        }
    }
}
