package dev.synccontext.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each scenario fails loudly, with {@link IllegalStateException}, for a context that drops work
 * (silently, or lying that it ran) or reorders it; and passes for a correct one. Scenarios here use a
 * short patience, which only bounds how long a broken context is waited for.
 */
class ScenarioVerdictTest {

    private static final Duration PATIENCE = Duration.ofMillis(300);
    private static final int SMALL_MANY = 100;
    private static final ExecutorService DRAINS = Executors.newFixedThreadPool(2);

    @AfterAll
    static void stop() {
        DRAINS.shutdownNow();
    }

    static Stream<Arguments> scenarios() {
        return Stream.of(
                Arguments.of("InvokeAsyncReady", (Supplier<LoopScenario>) () -> new InvokeAsyncReady(PATIENCE)),
                Arguments.of("InvokeAsyncBusy", (Supplier<LoopScenario>) () -> new InvokeAsyncBusy(PATIENCE)),
                Arguments.of("PostSerial", (Supplier<LoopScenario>) () -> new PostSerial(PATIENCE)),
                Arguments.of("PostConcurrent", (Supplier<LoopScenario>) () -> new PostConcurrent(PATIENCE)),
                Arguments.of("ManyContexts", (Supplier<LoopScenario>) () -> new ManyContexts(SMALL_MANY, PATIENCE)),
                Arguments.of("Contended", (Supplier<LoopScenario>) () -> new Contended(PATIENCE)));
    }

    private static void run(LoopScenario scenario, UnaryOperator<RendererSyncContext> breaker) throws Exception {
        List<RendererSyncContext> contexts = new ArrayList<>();
        for (int i = 0; i < scenario.contextsPerInvocation(); i++) {
            contexts.add(breaker.apply(RendererSyncContext.create(DRAINS)));
        }
        scenario.runOnce(contexts);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void passesForACorrectContext(String name, Supplier<LoopScenario> scenario) {
        assertThatCode(() -> run(scenario.get(), c -> c)).doesNotThrowAnyException();
    }

    /** Every scenario against every broken context: {@link BrokenContext}'s kinds, as each breaks a rule. */
    static Stream<Arguments> scenariosOnBrokenContexts() {
        List<Arguments> broken = List.of(
                Arguments.of("silently drops 1 call in 7",
                        (UnaryOperator<RendererSyncContext>) c -> new BrokenContext.Dropping(c, 7)),
                Arguments.of("drops 1 call in 7 and reports it done",
                        (UnaryOperator<RendererSyncContext>) c -> new BrokenContext.Lying(c, 7)),
                Arguments.of("swaps each thread's submissions in pairs",
                        (UnaryOperator<RendererSyncContext>) BrokenContext.Reordering::new));
        return scenarios().flatMap(scenario -> broken.stream().map(context -> Arguments.of(
                scenario.get()[0], scenario.get()[1], context.get()[0], context.get()[1])));
    }

    @ParameterizedTest(name = "{0} on a context that {2}")
    @MethodSource("scenariosOnBrokenContexts")
    void failsForAContextThatDropsOrReordersWork(String name, Supplier<LoopScenario> scenario, String broken,
            UnaryOperator<RendererSyncContext> breaker) {
        assertThatThrownBy(() -> run(scenario.get(), breaker))
                .as("%s on a context that %s", name, broken)
                .isInstanceOf(IllegalStateException.class).hasMessageContaining(name);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void refusesASecondConcurrentInvocationOnOneInstance(String name, Supplier<LoopScenario> scenario)
            throws Exception {
        LoopScenario one = scenario.get();
        java.util.concurrent.CountDownLatch inside = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        RendererSyncContext stuck = new BrokenContext(RendererSyncContext.create(DRAINS)) {
            @Override
            void submit(Runnable forward) {
                inside.countDown();
                SyncContextContract.await(release);
                forward.run();
            }
        };
        List<RendererSyncContext> contexts = new ArrayList<>();
        for (int i = 0; i < one.contextsPerInvocation(); i++) {
            contexts.add(stuck);
        }
        java.util.concurrent.CompletableFuture<Void> first = java.util.concurrent.CompletableFuture.runAsync(() -> {
            try {
                one.runOnce(contexts);
            } catch (Exception ignored) {
                // only the second call's verdict matters here
            }
        });
        inside.await();
        assertThatThrownBy(() -> one.runOnce(contexts))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("already running");
        release.countDown();
        first.get(30, java.util.concurrent.TimeUnit.SECONDS);
    }
}
