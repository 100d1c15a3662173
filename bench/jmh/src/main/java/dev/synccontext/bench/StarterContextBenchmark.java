package dev.synccontext.bench;

import dev.synccontext.CallbackDecorator;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.registry.ContextTemplate;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.scenario.Scenario;
import dev.synccontext.scenario.Scenarios;
import dev.synccontext.spring.CompositeCallbackDecorator;
import dev.synccontext.spring.observation.QueuedCallbackObservations;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.slf4j.MDC;

/**
 * What a queued callback costs in a context the starter built, beside the bare core: {@code PostSerial}
 * and {@code PostConcurrent} (the scenarios of {@code SeedBenchmarks}) on
 * <ul>
 *   <li>{@code context=starter}: {@code registry.create("session")} of the starter's auto-configuration
 *       with its defaults, so with its context-propagation decorator and its metrics observer;</li>
 *   <li>{@code context=bare}: the same template (executor, batch, limits) without decorator and observer;</li>
 *   <li>{@code context=starter-before}: as {@code starter}, with the starter's earlier decorator
 *       ({@link SnapshotFactoryDecorator}), to compare both in one run;</li>
 *   <li>{@code context=starter-observed}: as {@code starter}, with {@code synccontext.observations.enabled}'s
 *       decorator ({@link QueuedCallbackObservations}, innermost) recording each queued callback on the
 *       application's observation registry (a timer and a long task timer per observation, no tracer).</li>
 * </ul>
 * and the caller's thread-locals {@code threadLocals=none} (nothing to propagate) or
 * {@code threadLocals=mdc-observation} (two MDC entries and a started {@link Observation} in scope on the
 * calling thread, as during an HTTP request of an application with actuator). Default JVM flags.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
public class StarterContextBenchmark {

    @Param({"bare", "starter", "starter-before", "starter-observed"})
    public String context;

    @Param({"none", "mdc-observation"})
    public String threadLocals;

    private StarterApplication application;
    private RendererSyncContext serialContext;
    private RendererSyncContext concurrentContext;
    private final Scenario postSerial = Scenarios.byName("PostSerial");
    private final Scenario postConcurrent = Scenarios.byName("PostConcurrent");
    private Observation observation;

    @Setup(Level.Trial)
    public void setUp() {
        application = new StarterApplication();
        serialContext = create(application, context);
        concurrentContext = create(application, context);
        if (threadLocals.equals("mdc-observation")) {
            observation = Observation.start("http.server.requests", application.observations());
        } else if (!threadLocals.equals("none")) {
            throw new IllegalArgumentException("threadLocals: none or mdc-observation, was " + threadLocals);
        }
    }

    static RendererSyncContext create(StarterApplication application, String kind) {
        SyncContextRegistry registry = application.registry();
        switch (kind) {
            case "starter-observed":
                CallbackDecorator observed = new CompositeCallbackDecorator(List.of(
                        new QueuedCallbackObservations(application.observations()), registry.template().decorator()));
                return withDecorator(registry.template(), observed)
                        .newBuilder().observer(registry.statistics("session")).scope("session")
                        .name("starter-observed").build();
            case "starter":
                return registry.create("session");
            case "starter-before":
                return withDecorator(registry.template(), new SnapshotFactoryDecorator())
                        .newBuilder().observer(registry.statistics("session")).name("starter-before").build();
            case "bare":
                return withDecorator(registry.template(), null).newBuilder().name("bare").build();
            default:
                throw new IllegalArgumentException("context: bare, starter, starter-before or starter-observed, was " + kind);
        }
    }

    private static ContextTemplate withDecorator(ContextTemplate t, CallbackDecorator decorator) {
        return new ContextTemplate(t.executor(), t.executorName(), t.maxBatch(), t.maxQueueDepth(),
                t.blockedThreshold(), t.shutdownTimeout(), decorator, t.samplingInterval());
    }

    /** Puts the thread-locals in place on the thread that runs the benchmark (once per thread). */
    private void inScope() {
        if (observation != null && application.observations().getCurrentObservation() != observation) {
            observation.openScope();
            MDC.put("user", "alice");
            MDC.put("requestId", "4711");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        serialContext.close();
        concurrentContext.close();
        application.close();
    }

    /** One {@code invokeAsync} whose callback re-posts itself 1000 times; join the last step. */
    @Benchmark
    @OperationsPerInvocation(1000)
    public void PostSerial() throws Exception {
        inScope();
        postSerial.runOnce(serialContext);
    }

    /** 10,000 posts from one outside thread; the last to run completes a future that is joined. */
    @Benchmark
    @OperationsPerInvocation(10_000)
    public void PostConcurrent() throws Exception {
        inScope();
        postConcurrent.runOnce(concurrentContext);
    }
}
