package dev.synccontext.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.scenario.Scenario;
import dev.synccontext.scenario.Scenarios;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OperationsPerInvocation;

/**
 * Every mode's context passes one invocation of every scenario it is benchmarked with (the scenarios
 * verify themselves, so a wrong adapter fails here rather than looking fast), and each benchmark's
 * {@code @OperationsPerInvocation} equals its scenario's operation count. No benchmark runs here.
 */
class AlternativeContextSmokeTest {

    @ParameterizedTest
    @ValueSource(strings = {"baseline", "optimized", "single-thread", "guava-sequential", "lock-inline",
        "lock-inline-fair", "netty-nonsticky", "kotlinx-limited", "grpc-sync", "vertx-worker"})
    void everySeedScenarioAndContendedPassOnceOnThisMode(String mode) {
        List<Scenario> scenarios = new ArrayList<>(Scenarios.seed());
        scenarios.add(Scenarios.byName("Contended"));
        for (Scenario scenario : scenarios) {
            RendererSyncContext context = BenchModes.create(mode);
            try {
                assertThatCode(() -> scenario.runOnce(context)).as("%s on %s", scenario.name(), mode)
                        .doesNotThrowAnyException();
            } finally {
                context.close();
            }
        }
    }

    @Test
    void theSeedScenariosPassOnceOnTheUnserializedFloor() {
        for (Scenario scenario : Scenarios.seed()) {
            RendererSyncContext context = BenchModes.create(BenchModes.UNSERIALIZED);
            try {
                assertThatCode(() -> scenario.runOnce(context)).as("%s on the floor", scenario.name())
                        .doesNotThrowAnyException();
            } finally {
                context.close();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"baseline", "optimized", "guava-sequential", "lock-inline",
        "netty-nonsticky", "kotlinx-limited", "grpc-sync", "vertx-worker"})
    void manyContextsPassesOnceOnThisMode(String mode) {
        ScenarioState state = new ScenarioState("ManyContexts", mode);
        try {
            assertThatCode(state::run).as("ManyContexts on %s", mode).doesNotThrowAnyException();
        } finally {
            state.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"optimized", "netty-nonsticky"})
    void producersBenchmarkPassesOnceOnThisModeForEachProducerCount(String mode) throws Exception {
        for (int producers : new int[] {1, 2, 4, 8}) {
            ProducersBenchmark bench = new ProducersBenchmark();
            bench.mode = mode;
            bench.producers = producers;
            bench.setUp();
            try {
                assertThatCode(bench::post).as("%d producers on %s", producers, mode).doesNotThrowAnyException();
            } finally {
                bench.tearDown();
            }
        }
    }

    @Test
    void operationsPerInvocationMatchTheScenarios() {
        int checked = 0;
        for (Class<?> bench : List.of(SeedBenchmarks.class, ExtraBenchmarks.class)) {
            for (Method method : bench.getDeclaredMethods()) {
                if (method.isAnnotationPresent(Benchmark.class)) {
                    int declared = method.getAnnotation(OperationsPerInvocation.class).value();
                    assertThat(declared).as(method.getName())
                            .isEqualTo(Scenarios.byName(method.getName()).operationsPerInvocation());
                    checked++;
                }
            }
        }
        assertThat(checked).isEqualTo(6);
    }
}
