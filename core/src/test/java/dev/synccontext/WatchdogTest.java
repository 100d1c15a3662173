package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Rule 9, first half: callbacks over the blocked threshold are reported once, with their stack. */
class WatchdogTest {

    @Test
    void aCallbackOverTheThresholdIsReportedOnceWithItsThreadAndStack() throws Exception {
        BlockedReports observer = new BlockedReports();
        RendererSyncContext ctx = RendererSyncContext.builder().name("slow-view")
                .blockedThreshold(Duration.ofMillis(50))
                .observer(observer).build();
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<List<BlockedCallback>> listedWhileBlocked = new CompletableFuture<>();

        Thread owner = new Thread(() -> ctx.invokeAsync(() -> {
            Occupier.awaitUninterruptibly(observer.reported);
            listedWhileBlocked.complete(RendererSyncContext.blockedCallbacks());
            Occupier.awaitUninterruptibly(release);
        }), "blocking-owner");
        owner.start();

        assertThat(observer.reported.await(10, TimeUnit.SECONDS)).as("watchdog reported").isTrue();
        BlockedCallback report = observer.reports.get(0);
        assertThat(report.contextName()).isEqualTo("slow-view");
        assertThat(report.context()).isSameAs(ctx);
        assertThat(report.threadName()).isEqualTo("blocking-owner");
        assertThat(report.runningFor()).isGreaterThanOrEqualTo(Duration.ofMillis(50));
        assertThat(report.stack()).anySatisfy(frame -> assertThat(frame.getClassName()).contains("WatchdogTest"));
        assertThat(listedWhileBlocked.get(10, TimeUnit.SECONDS))
                .anySatisfy(b -> assertThat(b.context()).isSameAs(ctx));

        // Still blocked for several more ticks: no second report for the same callback.
        long ticksLater = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(150);
        while (System.nanoTime() < ticksLater) {
            Thread.sleep(10);
        }
        release.countDown();
        owner.join(10_000);
        assertThat(observer.reports).hasSize(1);
        assertThat(ctx.blockedCallbackCount()).isEqualTo(1);
        assertThat(RendererSyncContext.blockedCallbacks()).noneSatisfy(b -> assertThat(b.context()).isSameAs(ctx));
    }

    @Test
    void aZeroThresholdTurnsTheReportOff() throws Exception {
        BlockedReports observer = new BlockedReports();
        List<BlockedCallback> reports = observer.reports;
        RendererSyncContext watched = RendererSyncContext.builder().blockedThreshold(Duration.ofMillis(20))
                .observer(observer).build();
        RendererSyncContext unwatched = RendererSyncContext.builder().blockedThreshold(Duration.ZERO)
                .observer(observer).build();
        // The unwatched context blocks for ten of the watched threshold; it must not be reported.
        unwatched.invokeAsync(() -> spinFor(TimeUnit.MILLISECONDS.toNanos(200), reports));
        assertThat(reports).as("reports for a context whose threshold is zero").isEmpty();
        watched.invokeAsync(() -> spinFor(TimeUnit.SECONDS.toNanos(10), reports));
        assertThat(reports).singleElement().satisfies(b -> assertThat(b.context()).isSameAs(watched));
    }

    /** Busy for {@code nanos}, or until a report arrives. */
    private static void spinFor(long nanos, List<BlockedCallback> reports) {
        long until = System.nanoTime() + nanos;
        while (reports.isEmpty() && System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }
}
