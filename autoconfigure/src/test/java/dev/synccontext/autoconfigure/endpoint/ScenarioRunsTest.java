package dev.synccontext.autoconfigure.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.CallbackOutcome;
import dev.synccontext.CallbackPath;
import dev.synccontext.scenario.BaselineSyncContext;
import dev.synccontext.scenario.Mode;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import dev.synccontext.registry.ContextTemplate;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.testing.CountingDecorator;

class ScenarioRunsTest {

    private static final Function<Mode, RendererSyncContext> CONTEXTS =
            mode -> mode == Mode.OPTIMIZED ? RendererSyncContext.create() : new BaselineSyncContext();

    private final ScenarioRuns runs = new ScenarioRuns(CONTEXTS, 10, Duration.ofSeconds(20));

    private static String error(ScenarioRuns.Result result) {
        return ((ScenarioRunResponse.Refused) result.body()).error();
    }

    @Test
    void runsTheRequestedScenariosAndModesAsRowsAndTheSeedTable() {
        ScenarioRuns.Result result = runs.run("InvokeAsyncReady, PostSerial", "baseline,optimized", 2, 0);
        assertThat(result.status()).isEqualTo(200);
        ScenarioRunResponse.Report report = (ScenarioRunResponse.Report) result.body();
        assertThat(report.rows()).extracting(ScenarioRunResponse.Row::method, ScenarioRunResponse.Row::mode).containsExactly(
                org.assertj.core.groups.Tuple.tuple("InvokeAsyncReady", "baseline"),
                org.assertj.core.groups.Tuple.tuple("InvokeAsyncReady", "optimized"),
                org.assertj.core.groups.Tuple.tuple("PostSerial", "baseline"),
                org.assertj.core.groups.Tuple.tuple("PostSerial", "optimized"));
        assertThat(report.rows()).allSatisfy(row -> {
            assertThat(row.mean()).isPositive();
            assertThat(row.iterations()).isEqualTo(2);
            assertThat(row.units().operationsPerInvocation()).isEqualTo(1000);
            assertThat(row.units().time()).isEqualTo("us");
        });
        assertThat(report.table()).contains("Method").contains("Mean").contains("Allocated").contains("PostSerial");
    }

    @Test
    void defaultsAreTheSeedsFourScenariosInOptimizedMode() {
        ScenarioRuns.Result result = new ScenarioRuns(CONTEXTS, 1, Duration.ofSeconds(20)).run(null, null, null, null);
        ScenarioRunResponse.Report report = (ScenarioRunResponse.Report) result.body();
        assertThat(report.rows()).extracting(ScenarioRunResponse.Row::method)
                .containsExactly("InvokeAsyncReady", "InvokeAsyncBusy", "PostSerial", "PostConcurrent");
        assertThat(report.rows()).extracting(ScenarioRunResponse.Row::mode).containsOnly("optimized");
    }

    @Test
    void unknownScenarioIs400NamingTheValidOnes() {
        ScenarioRuns.Result result = runs.run("InvokeAsyncTurbo", null, 1, 0);
        assertThat(result.status()).isEqualTo(400);
        assertThat(error(result)).contains("InvokeAsyncTurbo").contains("InvokeAsyncReady");
    }

    @Test
    void unknownModeIs400() {
        ScenarioRuns.Result result = runs.run(null, "fast", 1, 0);
        assertThat(result.status()).isEqualTo(400);
        assertThat(error(result)).contains("fast").contains("baseline");
    }

    @Test
    void iterationsOverTheLimitAre400NamingTheProperty() {
        ScenarioRuns.Result result = runs.run(null, null, 11, 0);
        assertThat(result.status()).isEqualTo(400);
        assertThat(error(result)).contains("synccontext.benchmark.max-iterations").contains("11");
        assertThat(runs.run(null, null, 1, -1).status()).isEqualTo(400);
        assertThat(runs.run(null, null, 0, 0).status()).isEqualTo(400);
        assertThat(runs.run(" , ", null, 1, 0).status()).isEqualTo(400);
    }

    @Test
    void aSecondRunWhileOneIsInProgressIs429LikeHeapdump() throws Exception {
        CountDownLatch asked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ScenarioRuns blocking = new ScenarioRuns(mode -> {
            asked.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return RendererSyncContext.create();
        }, 5, Duration.ofSeconds(20));
        CompletableFuture<ScenarioRuns.Result> first =
                CompletableFuture.supplyAsync(() -> blocking.run("InvokeAsyncReady", null, 1, 0));
        assertThat(asked.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(blocking.running()).isTrue();
        ScenarioRuns.Result second = blocking.run("InvokeAsyncReady", null, 1, 0);
        assertThat(second.status()).isEqualTo(429);
        assertThat(error(second)).contains("already in progress");
        release.countDown();
        assertThat(first.get(30, TimeUnit.SECONDS).status()).isEqualTo(200);
        assertThat(blocking.running()).isFalse();
    }

    @Test
    void aFailingScenarioIs500WithItsMessage() {
        ScenarioRuns failing = new ScenarioRuns(mode -> {
            throw new IllegalStateException("no context today");
        }, 5, Duration.ofSeconds(5));
        ScenarioRuns.Result result = failing.run("InvokeAsyncReady", null, 1, 0);
        assertThat(result.status()).isEqualTo(500);
        assertThat(error(result)).contains("no context today");
        assertThat(failing.running()).isFalse();
    }
    @Test
    void forARegistryBothModesRunWithoutTheApplicationsDecoratorAndTheReportSaysSo() {
        CountingDecorator counting = new CountingDecorator();
        ContextTemplate template = new ContextTemplate(ForkJoinPool.commonPool(), "common-pool", 64, 0,
                Duration.ofSeconds(2), Duration.ofSeconds(30), counting);
        try (SyncContextRegistry registry = new SyncContextRegistry(template)) {
            ScenarioRuns.Result result = ScenarioRuns.forRegistry(registry, 5, Duration.ofSeconds(20))
                    .run("PostSerial", "baseline,optimized", 1, 0);
            assertThat(result.status()).isEqualTo(200);
            ScenarioRunResponse.Report report = (ScenarioRunResponse.Report) result.body();
            assertThat(counting.decorated()).as("queued callbacks the application's decorator wrapped").isZero();
            assertThat(report.contexts()).contains("both modes").contains("no callback decorator")
                    .contains("common-pool");
            var statistics = registry.statistics(SyncContextRegistry.BENCHMARK_SCOPE);
            assertThat(statistics.tasks(CallbackPath.QUEUED, CallbackOutcome.SUCCESS))
                    .as("optimized runs counted under the benchmark scope").isGreaterThanOrEqualTo(1000);
        }
    }
}
