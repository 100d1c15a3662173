package dev.synccontext.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * What the channel tests write on: a fixed pool of daemon {@code live-drain} threads, the statistics of the
 * test's channels, and a channel builder over both. {@link #close} stops the pool and fails the test if a
 * drain does not end within five seconds.
 */
final class LiveDrains implements AutoCloseable {

    final ExecutorService executor;
    final LiveStatistics statistics = new LiveStatistics("test");

    LiveDrains(int threads) {
        executor = Executors.newFixedThreadPool(threads, r -> {
            Thread thread = new Thread(r, "live-drain");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** A channel named {@code board} with {@code policy}, {@code capacity} per subscriber and 16 kept for replay. */
    LiveChannel.Builder channel(OverflowPolicy policy, int capacity) {
        return LiveChannel.builder("board").policy(policy).bufferCapacity(capacity).replayCapacity(16)
                .executor(executor).statistics(statistics);
    }

    @Override
    public void close() throws InterruptedException {
        executor.shutdownNow();
        assertThat(executor.awaitTermination(5, TimeUnit.SECONDS)).as("the drains ended").isTrue();
    }
}
