package dev.synccontext.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The drain's state machine under races: transports that go "not ready" at random and report
 * {@link LiveSubscriber#writable()} from another thread, sometimes before the drain has parked. Every
 * subscriber must see strictly increasing sequence numbers, never two writes at once, gaps exactly as many as
 * it counted dropped, and nothing left behind once its transport reads again. Run twice: with transports that may
 * block (every write on the executor), and with transports that never block, so that each publish also writes one
 * idle subscriber on the publishing thread, racing the executor's drains and the timer's {@code writable()}.
 */
class SubscriberDrainStressTest {

    /** Not ready at random; a timer thread reports writable shortly after, racing the drain's parking. */
    static final class FlakyTransport implements LiveTransport {
        final List<Long> sequences = new ArrayList<>(); // written by one drain at a time (happens-before chain)
        final AtomicInteger inWrite = new AtomicInteger();
        final AtomicInteger overlaps = new AtomicInteger();
        final SplittableRandom random;
        final ScheduledExecutorService timer;
        volatile LiveSubscriber subscriber;
        volatile boolean notReady;
        private final boolean nonBlocking;

        FlakyTransport(long seed, ScheduledExecutorService timer, boolean nonBlocking) {
            this.random = new SplittableRandom(seed);
            this.timer = timer;
            this.nonBlocking = nonBlocking;
        }

        @Override
        public boolean writesWithoutBlocking() {
            return nonBlocking;
        }

        @Override
        public boolean ready() {
            return !notReady;
        }

        @Override
        public boolean write(LiveMessage message) {
            if (inWrite.incrementAndGet() != 1) {
                overlaps.incrementAndGet();
            }
            synchronized (sequences) {
                sequences.add(message.sequence());
            }
            boolean busy;
            synchronized (random) {
                busy = random.nextInt(4) == 0;
            }
            inWrite.decrementAndGet();
            if (busy) {
                notReady = true;
                timer.schedule(() -> {
                    notReady = false;
                    subscriber.writable();
                }, 50, TimeUnit.MICROSECONDS);
                return false;
            }
            return true;
        }

        @Override
        public void close(CloseReason reason) {
        }

        @Override
        public void attach(LiveSubscriber subscriber) {
            this.subscriber = subscriber;
        }
    }

    @ParameterizedTest(name = "writes without blocking: {0}")
    @ValueSource(booleans = {false, true})
    void orderIsKeptAndEveryGapIsACountedDrop(boolean nonBlocking) {
        long seed = System.nanoTime();
        System.out.println("SubscriberDrainStressTest seed " + seed + ", writes without blocking: " + nonBlocking);
        ExecutorService drains = Executors.newFixedThreadPool(3);
        ScheduledExecutorService timer = Executors.newScheduledThreadPool(1);
        try {
            LiveStatistics statistics = new LiveStatistics("stress");
            LiveChannel live = LiveChannel.builder("stress").policy(OverflowPolicy.DROP_OLDEST).bufferCapacity(16)
                    .executor(drains).statistics(statistics).inlineWrites(nonBlocking).build(() -> "snapshot");
            List<FlakyTransport> tabs = new ArrayList<>();
            List<LiveSubscriber> subscribers = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                FlakyTransport tab = new FlakyTransport(seed + i, timer, nonBlocking);
                tabs.add(tab);
                subscribers.add(live.subscribe(tab));
            }
            int published = 50_000;
            for (int i = 1; i <= published; i++) {
                live.publish("tick", i);
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> statistics.buffered() == 0
                    && subscribers.stream().allMatch(s -> s.lastWritten() == published));
            for (int i = 0; i < tabs.size(); i++) {
                FlakyTransport tab = tabs.get(i);
                List<Long> seen;
                synchronized (tab.sequences) {
                    seen = List.copyOf(tab.sequences);
                }
                assertThat(tab.overlaps).as("seed %d tab %d: overlapping writes", seed, i).hasValue(0);
                assertThat(seen).as("seed %d tab %d: strictly increasing", seed, i).isSorted().doesNotHaveDuplicates();
                long gaps = seen.get(seen.size() - 1) - seen.get(0) + 1 - seen.size() + seen.get(0);
                assertThat(gaps).as("seed %d tab %d: every missing sequence number was a counted drop", seed, i)
                        .isEqualTo(subscribers.get(i).dropped());
                assertThat(subscribers.get(i).highWater()).isLessThanOrEqualTo(16);
            }
            long dropped = subscribers.stream().mapToLong(LiveSubscriber::dropped).sum();
            assertThat(statistics.dropped(OverflowPolicy.DROP_OLDEST)).isEqualTo(dropped);
            assertThat(statistics.written() + dropped).isEqualTo(20L * (published + 1));
        } finally {
            drains.shutdownNow();
            timer.shutdownNow();
        }
    }
}
