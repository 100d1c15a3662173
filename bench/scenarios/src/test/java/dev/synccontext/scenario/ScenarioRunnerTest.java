package dev.synccontext.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The in-process runner: its rows, its table, its time bound and its validation. */
class ScenarioRunnerTest {

    private static final ExecutorService DRAINS = Executors.newFixedThreadPool(2);
    private static final ScenarioRunner RUNNER = new ScenarioRunner(mode -> mode == Mode.OPTIMIZED
            ? RendererSyncContext.create(DRAINS) : new BaselineSyncContext("baseline", DRAINS));

    @AfterAll
    static void stop() {
        DRAINS.shutdownNow();
    }

    @Test
    void reportsOneRowPerScenarioAndModeWithTheSeedsColumns() {
        BenchmarkReport report = RUNNER.run(new BenchmarkRequest(List.of("InvokeAsyncReady", "PostSerial"),
                List.of(Mode.BASELINE, Mode.OPTIMIZED), 1, 3, Duration.ofSeconds(20)));
        assertThat(report.truncated()).isFalse();
        assertThat(report.rows()).extracting(BenchmarkRow::method, BenchmarkRow::mode).containsExactly(
                org.assertj.core.groups.Tuple.tuple("InvokeAsyncReady", "baseline"),
                org.assertj.core.groups.Tuple.tuple("InvokeAsyncReady", "optimized"),
                org.assertj.core.groups.Tuple.tuple("PostSerial", "baseline"),
                org.assertj.core.groups.Tuple.tuple("PostSerial", "optimized"));
        for (BenchmarkRow row : report.rows()) {
            assertThat(row.iterations()).isEqualTo(3);
            assertThat(row.meanMicros()).isPositive();
            assertThat(row.medianMicros()).isPositive();
            assertThat(row.errorMicros()).isGreaterThanOrEqualTo(0);
            assertThat(row.allocatedBytes()).isGreaterThanOrEqualTo(0);
        }
        assertThat(report.table().lines().findFirst().orElseThrow())
                .matches("\\| Method +\\| Mode +\\| +Mean \\| +Error \\| +StdDev \\| +Median \\| +Allocated \\|");
        assertThat(report.table().lines().skip(1).findFirst().orElseThrow()).matches("\\|-+ \\|-+ \\|(-+:\\|){5}");
        assertThat(report.table()).contains("InvokeAsyncReady", "μs", "KB");
        assertThat(report.table().lines()).hasSize(2 + 4);
    }

    @Test
    void baselineAllocatesMoreThanOptimizedOnTheIdlePath() {
        BenchmarkReport report = RUNNER.run(new BenchmarkRequest(List.of("InvokeAsyncReady"),
                List.of(Mode.BASELINE, Mode.OPTIMIZED), 2, 3, Duration.ofSeconds(20)));
        // Baseline: a placeholder, a completion future and an item per call; optimized: nothing.
        assertThat(report.rows().get(0).allocatedBytes()).as("baseline bytes per 1000 calls")
                .isGreaterThan(1000 * 40.0);
        assertThat(report.rows().get(1).allocatedBytes()).as("optimized bytes per 1000 calls")
                .isLessThan(report.rows().get(0).allocatedBytes() / 10);
    }

    @Test
    void stopsAtItsMaxDurationAndSaysSo() {
        long start = System.nanoTime();
        BenchmarkReport report = RUNNER.run(new BenchmarkRequest(Scenarios.names(),
                List.of(Mode.BASELINE, Mode.OPTIMIZED), 5, 100, Duration.ofMillis(300)));
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        assertThat(report.truncated()).isTrue();
        assertThat(report.rows().size()).isLessThan(12);
        assertThat(tookMillis).as("run time with a 300 ms bound").isLessThan(3_000);
        assertThat(report.elapsed()).isLessThan(Duration.ofSeconds(3));
    }

    @Test
    void aScenarioThatFindsItsContextBrokenFailsTheRun() {
        ScenarioRunner broken = new ScenarioRunner(mode -> new BrokenContext.Lying(RendererSyncContext.create(DRAINS), 7));
        assertThatThrownBy(() -> broken.run(new BenchmarkRequest(List.of("InvokeAsyncReady"),
                List.of(Mode.OPTIMIZED), 0, 1, Duration.ofSeconds(10))))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("InvokeAsyncReady");
    }

    @Test
    void requestsAreValidatedWithClearMessages() {
        assertThatThrownBy(() -> new BenchmarkRequest(List.of(), List.of(Mode.OPTIMIZED), 0, 1, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("InvokeAsyncReady");
        assertThatThrownBy(() -> new BenchmarkRequest(List.of("Nope"), List.of(Mode.OPTIMIZED), 0, 1, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Nope").hasMessageContaining("PostSerial");
        assertThatThrownBy(() -> new BenchmarkRequest(List.of("PostSerial"), List.of(), 0, 1, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("modes");
        assertThatThrownBy(() -> new BenchmarkRequest(List.of("PostSerial"), List.of(Mode.OPTIMIZED), -1, 1, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("warmups");
        assertThatThrownBy(() -> new BenchmarkRequest(List.of("PostSerial"), List.of(Mode.OPTIMIZED), 0, 0, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("iterations");
        assertThatThrownBy(() -> new BenchmarkRequest(List.of("PostSerial"), List.of(Mode.OPTIMIZED), 0, 1, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxDuration");
    }

    @Test
    void modesAndScenariosAreFoundByIdOrNameWithClearMessages() {
        assertThat(Mode.fromId("baseline")).isSameAs(Mode.BASELINE);
        assertThat(Mode.fromId("optimized")).isSameAs(Mode.OPTIMIZED);
        assertThatThrownBy(() -> Mode.fromId("fast")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fast").hasMessageContaining("baseline, optimized");
        assertThat(Scenarios.seed()).extracting(Scenario::name)
                .containsExactly("InvokeAsyncReady", "InvokeAsyncBusy", "PostSerial", "PostConcurrent");
        assertThat(Scenarios.all()).extracting(Scenario::name).containsExactly("InvokeAsyncReady",
                "InvokeAsyncBusy", "PostSerial", "PostConcurrent", "ManyContexts", "Contended");
        assertThat(Scenarios.byName("PostSerial")).isNotSameAs(Scenarios.byName("PostSerial"));
        assertThatThrownBy(() -> Scenarios.byName("postserial")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("PostSerial");
    }

    @Test
    void idleFootprintIsAPlausiblePositiveEstimate() {
        double bytes = IdleFootprint.bytesPerIdleContext(RendererSyncContext::create, 20_000);
        assertThat(bytes).as("retained bytes per idle context").isBetween(8.0, 1024.0);
    }
}
