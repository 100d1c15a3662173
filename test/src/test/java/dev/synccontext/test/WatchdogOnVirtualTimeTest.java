package dev.synccontext.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.BlockedCallback;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.SyncContextObserver;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * The watchdog on a kit's virtual clock: its scans are background timers on the clock, so a blocked
 * callback is reported inside the {@code advanceBy} that moves time past its threshold, at an exact
 * virtual instant, on the thread that moves time; never before the threshold, at most one tick (a
 * quarter of the smallest threshold on the clock) after it; and nothing depends on real time: the report
 * is there however soon after the callback started time is moved, and real time passing moves nothing.
 */
@SyncContextTest
class WatchdogOnVirtualTimeTest {

    /** Reports, each with the virtual time and the thread it came at. */
    private static final class Reports implements SyncContextObserver {
        private final SyncContextTestKit kit;
        private final List<BlockedCallback> blocked = new ArrayList<>();
        private final List<Duration> at = new ArrayList<>();
        private final List<Thread> on = new ArrayList<>();

        Reports(SyncContextTestKit kit) {
            this.kit = kit;
        }

        @Override
        public synchronized void callbackBlocked(BlockedCallback report) {
            blocked.add(report);
            at.add(kit.currentTime());
            on.add(Thread.currentThread());
        }

        synchronized List<BlockedCallback> blocked() {
            return List.copyOf(blocked);
        }

        synchronized List<Duration> at() {
            return List.copyOf(at);
        }

        synchronized List<Thread> on() {
            return List.copyOf(on);
        }
    }

    /** A callback of {@code context} blocked on {@code release} on a thread of its own; returns once it runs. */
    private static Thread blockOn(RendererSyncContext context, CountDownLatch release) throws InterruptedException {
        return HungCaller.start(context, "blocked-caller", () -> awaitUninterruptibly(release));
    }

    @RepeatedTest(20)
    void aCallbackThatStartsOnATickIsReportedAtExactlyItsThresholdOnTheThreadThatMovesTime(SyncContextTestKit kit)
            throws InterruptedException {
        Reports reports = new Reports(kit);
        Duration threshold = Duration.ofMillis(400); // tick 100 ms; the kit's time is 0, a tick
        RendererSyncContext context = kit.contextBuilder().name("slow").scope("test").blockedThreshold(threshold)
                .observer(reports).build();
        CountDownLatch release = new CountDownLatch(1);
        Thread caller = blockOn(context, release);
        try {
            // Time moves at once: no real-time thread has to have looked first.
            kit.advanceBy(threshold.minusNanos(1));
            assertThat(reports.blocked()).as("within the threshold").isEmpty();
            assertThat(RendererSyncContext.blockedCallbacks()).noneMatch(b -> b.context() == context);

            kit.advanceBy(Duration.ofNanos(1));
            assertThat(reports.at()).as("reported at exactly the threshold").containsExactly(threshold);
            assertThat(reports.on()).as("inside advanceBy, on the thread that moved time")
                    .containsExactly(Thread.currentThread());
            BlockedCallback report = reports.blocked().get(0);
            assertThat(report.contextName()).isEqualTo("slow");
            assertThat(report.scope()).isEqualTo("test");
            assertThat(report.threadName()).isEqualTo("blocked-caller");
            assertThat(report.runningFor()).isEqualTo(threshold);
            assertThat(report.queuedFor()).as("ran on its caller's thread").isZero();
            assertThat(RendererSyncContext.blockedCallbacks()).anySatisfy(b -> {
                assertThat(b.context()).isSameAs(context);
                assertThat(b.runningFor()).isEqualTo(threshold);
            });

            kit.advanceBy(Duration.ofHours(1));
            assertThat(reports.blocked()).as("once per callback").hasSize(1);
            assertThat(context.blockedCallbackCount()).isOne();
        } finally {
            release.countDown();
            HungCaller.join(caller);
        }
        assertThat(RendererSyncContext.blockedCallbacks()).noneMatch(b -> b.context() == context);
    }

    /**
     * The report latency bound, at its worst: a callback that starts just after a scan is first seen a
     * tick later, and is reported at that sighting plus its threshold (a scan is set for that deadline),
     * not at the next tick after it. Here the tick is 75 ms (a quarter of the other context's 300 ms), so
     * the 1 s threshold is not a multiple of it: a report at the first tick past the deadline would come
     * at 1,125 ms, threshold + 1.67 ticks.
     */
    @RepeatedTest(20)
    void aCallbackIsReportedNeverBeforeItsThresholdAndAtMostOneTickAfter(SyncContextTestKit kit)
            throws InterruptedException {
        Reports reports = new Reports(kit);
        Duration threshold = Duration.ofSeconds(1);
        Duration tick = Duration.ofMillis(75);
        kit.contextBuilder().name("quick").blockedThreshold(Duration.ofMillis(300)).build();
        RendererSyncContext context = kit.contextBuilder().name("slow").blockedThreshold(threshold).observer(reports)
                .build();
        kit.advanceBy(Duration.ofNanos(1)); // past the scan at 0
        Duration start = kit.currentTime();
        CountDownLatch release = new CountDownLatch(1);
        Thread caller = blockOn(context, release);
        try {
            kit.advanceBy(threshold.minusNanos(1));
            assertThat(reports.blocked()).as("at threshold - 1 ns").isEmpty();
            kit.advanceBy(Duration.ofNanos(1));
            assertThat(reports.blocked()).as("at the threshold: not seen until the scan at 75 ms").isEmpty();

            kit.advanceBy(tick); // to start + threshold + one tick
            assertThat(reports.at()).as("at the first sighting (75 ms) plus the threshold")
                    .containsExactly(tick.plus(threshold));
            assertThat(reports.at().get(0).minus(start)).isLessThanOrEqualTo(threshold.plus(tick))
                    .isGreaterThanOrEqualTo(threshold);
            assertThat(reports.blocked().get(0).runningFor()).as("timed from its sighting").isEqualTo(threshold);
        } finally {
            release.countDown();
            HungCaller.join(caller);
        }
    }

    /**
     * Real time moves nothing: while a context on the real clock with the same threshold is reported by
     * the watchdog thread (which proves that thread scanned, many times, after both callbacks started), the
     * one on virtual time, whose time stood still, is not; then the first advance reports it.
     */
    @Test
    void realTimePassingReportsNothingOnVirtualTime(SyncContextTestKit kit) throws InterruptedException {
        Reports virtual = new Reports(kit);
        Duration threshold = Duration.ofMillis(50);
        RendererSyncContext onKit = kit.contextBuilder().name("virtual").blockedThreshold(threshold).observer(virtual)
                .build();
        CountDownLatch realReported = new CountDownLatch(1);
        RendererSyncContext onRealClock = RendererSyncContext.builder().name("real").blockedThreshold(threshold)
                .observer(new SyncContextObserver() {
                    @Override
                    public void callbackBlocked(BlockedCallback blocked) {
                        realReported.countDown();
                    }
                }).build();
        CountDownLatch release = new CountDownLatch(1);
        Thread virtualCaller = blockOn(onKit, release);
        Thread realCaller = blockOn(onRealClock, release);
        try {
            assertThat(realReported.await(30, TimeUnit.SECONDS)).as("the real clock's callback was reported").isTrue();
            assertThat(virtual.blocked()).as("virtual time stood still").isEmpty();
            kit.advanceBy(threshold);
            assertThat(virtual.at()).containsExactly(threshold);
        } finally {
            release.countDown();
            HungCaller.join(virtualCaller);
            HungCaller.join(realCaller);
        }
    }

    @Test
    void theScansNeitherCountAsPendingTimersNorKeepAdvanceUntilIdleGoing(SyncContextTestKit kit) {
        RendererSyncContext context = kit.newContext("default-threshold"); // 2 s: scans every 250 ms
        assertThat(kit.clock().pendingTimers()).isZero();
        kit.advanceUntilIdle();
        assertThat(kit.currentTime()).as("nothing to wait for").isZero();
        List<Duration> fired = new ArrayList<>();
        kit.clock().schedule(() -> fired.add(kit.currentTime()), Duration.ofHours(2));
        kit.advanceUntilIdle(); // 28,800 scans on the way, well past MAX_TIMERS_PER_ADVANCE
        assertThat(fired).containsExactly(Duration.ofHours(2));
        assertThat(kit.currentTime()).isEqualTo(Duration.ofHours(2));
        assertThat(context.invokeAsync(() -> 1)).isCompletedWithValue(1);
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        for (;;) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
