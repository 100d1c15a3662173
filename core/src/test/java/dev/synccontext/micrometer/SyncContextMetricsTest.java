package dev.synccontext.micrometer;

import dev.synccontext.statistics.SyncContextStatistics;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.CallbackOutcome;
import dev.synccontext.CallbackPath;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import dev.synccontext.testing.NoThreadLeftStuck;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class SyncContextMetricsTest {

    private final List<RendererSyncContext> live = new CopyOnWriteArrayList<>();
    @RegisterExtension
    final NoThreadLeftStuck threads = new NoThreadLeftStuck();

    private final ExecutorService executor = threads.fixedPool(1);
    private final MeterRegistry registry = new SimpleMeterRegistry();

    @AfterEach
    void closeLive() {
        live.forEach(RendererSyncContext::closeNow);
    }

    private SyncContextStatistics statistics(int samplingInterval) {
        SyncContextStatistics statistics = new SyncContextStatistics("session", () -> live, samplingInterval);
        new SyncContextMetrics(statistics).bindTo(registry);
        return statistics;
    }

    private RendererSyncContext context(SyncContextStatistics statistics) {
        RendererSyncContext context = RendererSyncContext.builder()
                .executor(executor)
                .observer(statistics)
                .unhandledExceptionHandler((ctx, failure) -> { })
                .build();
        live.add(context);
        return context;
    }

    private double tasks(String path, String outcome) {
        return registry.get("synccontext.tasks").tags("scope", "session", "path", path, "outcome", outcome)
                .functionCounter().count();
    }

    @Test
    void registersEveryMeterOfTheIssueOncePerScopeWithTheScopeTag() {
        statistics(32);
        Set<String> names = registry.getMeters().stream().map(m -> m.getId().getName()).collect(Collectors.toSet());
        assertThat(names).containsExactlyInAnyOrder("synccontext.contexts", "synccontext.queue.depth",
                "synccontext.tasks", "synccontext.task.wait.sampled", "synccontext.task.duration.sampled",
                "synccontext.allocated", "synccontext.allocation.rate", "synccontext.blocked",
                "synccontext.unhandled");
        assertThat(registry.getMeters()).allSatisfy(m -> assertThat(m.getId().getTag("scope")).isEqualTo("session"));
        assertThat(registry.find("synccontext.tasks").meters()).as("4 paths x 4 outcomes").hasSize(16);
        assertThat(registry.get("synccontext.queue.depth").gauge().getId().getBaseUnit()).isEqualTo("tasks");
        assertThat(registry.get("synccontext.allocated").functionCounter().getId().getBaseUnit()).isEqualTo("bytes");
    }

    @Test
    void manyContextsShareOneSetOfMetersAndAreCountedExactly() {
        SyncContextStatistics statistics = statistics(32);
        for (int i = 0; i < 100; i++) {
            context(statistics).invokeAsync(() -> { }).join();
        }
        assertThat(registry.getMeters()).hasSize(24);
        assertThat(registry.get("synccontext.contexts").gauge().value()).isEqualTo(100);
        assertThat(tasks("inline", "success")).isEqualTo(100);
    }

    @Test
    void countsEveryPathAndOutcome() throws Exception {
        SyncContextStatistics statistics = statistics(32);
        RendererSyncContext ctx = context(statistics);
        ctx.invokeAsync(() -> { }).join();                                    // inline success
        ctx.invokeAsync((Runnable) () -> { throw new IllegalStateException("x"); }); // inline failure
        ctx.invokeAsync(() -> ctx.invokeAsync(() -> { })).join();             // inline + nested
        ctx.send(() -> { });                                                   // send
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Void> hold = new CompletableFuture<>();
        ctx.post(() -> {                                                       // queued
            hold.complete(null);
            await(release);
        });
        hold.join();
        assertThat(registry.get("synccontext.queue.depth").gauge().value()).isZero();
        ctx.post(() -> { throw new IllegalArgumentException("boom"); });       // queued failure
        CompletableFuture<Void> queued = ctx.invokeAsync(() -> { });           // queued success
        assertThat(registry.get("synccontext.queue.depth").gauge().value()).isEqualTo(2);
        release.countDown();
        queued.join();
        ctx.close();
        assertThat(ctx.awaitTermination(Duration.ofSeconds(10))).isTrue();
        assertThatThrownBy(() -> ctx.post(() -> { })).isInstanceOf(RejectedExecutionException.class);

        assertThat(tasks("inline", "success")).isEqualTo(2);
        assertThat(tasks("inline", "failure")).isEqualTo(1);
        assertThat(tasks("nested", "success")).isEqualTo(1);
        assertThat(tasks("send", "success")).isEqualTo(1);
        assertThat(tasks("queued", "success")).isEqualTo(2);
        assertThat(tasks("queued", "failure")).isEqualTo(1);
        assertThat(tasks("queued", "rejected")).isEqualTo(1);
        assertThat(statistics.tasks()).isEqualTo(9);
        assertThat(registry.get("synccontext.unhandled").functionCounter().count()).isEqualTo(1);
    }

    @Test
    void timersAndAllocationSeeTheSampledCallbacks() {
        SyncContextStatistics statistics = statistics(1); // every callback sampled
        RendererSyncContext ctx = context(statistics);
        for (int i = 0; i < 10; i++) {
            ctx.invokeAsync(() -> new byte[1024]).join();
        }
        Timer duration = registry.get("synccontext.task.duration.sampled").timer();
        assertThat(duration.count()).isEqualTo(10);
        assertThat(registry.get("synccontext.task.wait.sampled").timer().count()).as("inline callbacks never wait").isZero();
        assertThat(registry.get("synccontext.allocated").functionCounter().count()).isGreaterThanOrEqualTo(10 * 1024);
        assertThat(registry.get("synccontext.allocation.rate").gauge().value())
                .as("bytes per second since the statistics were made").isPositive();
    }

    @Test
    void queuedCallbacksRecordTheirWait() {
        SyncContextStatistics statistics = statistics(1);
        RendererSyncContext ctx = context(statistics);
        for (int i = 0; i < 5; i++) {
            ctx.post(() -> { });
        }
        ctx.invokeAsync(() -> { }).join();
        ctx.close();
        // The five posts queue; the invokeAsync queues too unless the drain already finished them.
        assertThat(registry.get("synccontext.task.wait.sampled").timer().count()).isBetween(5L, 6L);
    }

    @Test
    void samplesAboutOneCallbackInTheInterval() {
        SyncContextStatistics statistics = statistics(32);
        RendererSyncContext ctx = context(statistics);
        for (int i = 0; i < 32 * 100; i++) {
            ctx.invokeAsync(() -> { });
        }
        assertThat(registry.get("synccontext.task.duration.sampled").timer().count()).isEqualTo(100);
    }

    @Test
    void countsBlockedCallbacks() throws Exception {
        SyncContextStatistics statistics = new SyncContextStatistics("session", () -> live);
        new SyncContextMetrics(statistics).bindTo(registry);
        RendererSyncContext ctx = RendererSyncContext.builder().observer(statistics)
                .blockedThreshold(Duration.ofMillis(20)).build();
        live.add(ctx);
        CountDownLatch reported = new CountDownLatch(1);
        ctx.invokeAsync(() -> {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (statistics.blocked() == 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait(); // hold the context until the watchdog reports it
            }
            reported.countDown();
        });
        assertThat(reported.await(15, TimeUnit.SECONDS)).isTrue();
        assertThat(registry.get("synccontext.blocked").functionCounter().count()).isEqualTo(1);
    }

    @Test
    void rejectsASamplingIntervalThatIsNotAPowerOfTwo() {
        assertThatThrownBy(() -> new SyncContextStatistics("s", List::of, 3))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("samplingInterval");
    }

    @Test
    void allocationRateGaugeIsZeroBeforeAnyAllocationSoItSumsAcrossInstances() {
        statistics(32);
        assertThat(registry.get("synccontext.allocation.rate").gauge().value()).isZero();
    }

    @Test
    void noMeterIsAGaugeOfAMeanOrATimerWhoseNameHidesItsSampling() {
        statistics(32);
        for (Meter meter : registry.getMeters()) {
            String name = meter.getId().getName();
            if (meter instanceof Timer || meter instanceof io.micrometer.core.instrument.DistributionSummary) {
                assertThat(name).as("a sampled distribution says so in its name").endsWith(".sampled");
            }
            assertThat(name).as("no per-task mean gauge (it cannot be summed across instances)")
                    .doesNotContain("per.task");
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("test latch not released in 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
