package dev.synccontext.spring.propagation;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.Occupier;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.testing.NoThreadLeftStuck;
import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ThreadLocalAccessor;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.MDC;

class ContextPropagationDecoratorTest {

    private static final ThreadLocal<String> TENANT = new ThreadLocal<>();

    @RegisterExtension
    final NoThreadLeftStuck threads = new NoThreadLeftStuck();

    private final ExecutorService drainThread = threads.fixedPool(1);

    @AfterEach
    void clearThreadLocals() {
        MDC.clear();
        TENANT.remove();
    }

    private RendererSyncContext context() {
        ContextRegistry global = new ContextRegistry().loadThreadLocalAccessors();
        global.registerThreadLocalAccessor("tenant", TENANT);
        return RendererSyncContext.builder().executor(drainThread)
                .queuedCallbackDecorator(new ContextPropagationDecorator(global)).build();
    }

    /** What {@code read} returns on the drain thread, after what was handed to that thread before. */
    private <T> T onDrainThread(Supplier<T> read) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        drainThread.execute(() -> result.complete(read.get()));
        return result.get(10, TimeUnit.SECONDS);
    }

    /** Runs {@code task} on the drain thread, as a pool's earlier task would, and returns once it has run. */
    private void runOnDrainThread(Runnable task) throws Exception {
        onDrainThread(() -> {
            task.run();
            return null;
        });
    }

    @Test
    void queuedCallbackRunsWithTheSubmittersMdcAndThreadLocalsAndClearsThemAfterwards() throws Exception {
        RendererSyncContext ctx = context();
        MDC.put("user", "alice");
        TENANT.set("acme");
        CompletableFuture<String> seen = new CompletableFuture<>();
        ctx.post(() -> seen.complete(MDC.get("user") + "/" + TENANT.get()));
        assertThat(seen.get(10, TimeUnit.SECONDS)).isEqualTo("alice/acme");

        assertThat(onDrainThread(() -> MDC.get("user") + "/" + TENANT.get()))
                .as("the drain thread keeps nothing afterwards").isEqualTo("null/null");
    }

    @Test
    void aCallbackDoesNotSeeWhatThePreviousTaskOfItsPoolThreadLeftBehind() throws Exception {
        RendererSyncContext ctx = context();
        runOnDrainThread(() -> MDC.put("user", "stale")); // a sloppy task that does not clean up
        MDC.put("user", "bob");
        MDC.remove("user"); // submitter has no user
        CompletableFuture<String> seen = new CompletableFuture<>();
        ctx.post(() -> seen.complete(String.valueOf(MDC.get("user"))));
        assertThat(seen.get(10, TimeUnit.SECONDS)).isEqualTo("null");
    }

    @Test
    void queuedInvokeAsyncCallablesAreDecoratedToo() throws Exception {
        RendererSyncContext ctx = context();
        CompletableFuture<String> queued;
        try (Occupier occupier = Occupier.occupy(ctx)) {
            TENANT.set("globex");
            queued = ctx.invokeAsync(TENANT::get);
            TENANT.remove();
        }
        assertThat(queued.get(10, TimeUnit.SECONDS)).isEqualTo("globex");
    }
    @Test
    void theRunningThreadGetsItsOwnValuesBackAfterTheCallback() throws Exception {
        RendererSyncContext ctx = context();
        runOnDrainThread(() -> {
            MDC.put("user", "drain-owner"); // what the pool thread holds of its own
            TENANT.set("drain-tenant");
        });
        TENANT.set("acme"); // the submitter: a tenant, no MDC
        CompletableFuture<String> seen = new CompletableFuture<>();
        ctx.post(() -> seen.complete(MDC.get("user") + "/" + TENANT.get()));
        assertThat(seen.get(10, TimeUnit.SECONDS)).as("captured values set, others cleared").isEqualTo("null/acme");

        assertThat(onDrainThread(() -> MDC.get("user") + "/" + TENANT.get())).as("the thread's own values restored")
                .isEqualTo("drain-owner/drain-tenant");
    }

    @Test
    void aQueuedCallbackRunsInTheSubmittersObservationAndItsScopeIsClosedAfterwards() throws Exception {
        ObservationRegistry observations = ObservationRegistry.create();
        observations.observationConfig().observationHandler(context -> true);
        RendererSyncContext ctx = context();
        Observation request = Observation.start("http.server.requests", observations);
        CompletableFuture<Observation> seen = new CompletableFuture<>();
        try (Observation.Scope scope = request.openScope()) {
            ctx.post(() -> seen.complete(observations.getCurrentObservation()));
        }
        assertThat(seen.get(10, TimeUnit.SECONDS)).isSameAs(request);

        assertThat(onDrainThread(() -> String.valueOf(observations.getCurrentObservation())))
                .as("no observation left in scope on the drain thread")
                .isEqualTo("null");
        request.stop();
    }

    @Test
    void whenAnAccessorFailsToSetItsValueTheOnesSetBeforeAreRestoredAndTheCallbackDoesNotRun() throws Exception {
        ThreadLocal<String> failing = new ThreadLocal<>();
        ContextRegistry registry = new ContextRegistry();
        registry.registerThreadLocalAccessor("tenant", TENANT);
        registry.<String>registerThreadLocalAccessor("failing", failing::get, value -> {
            throw new IllegalStateException("cannot set " + value);
        }, failing::remove);
        ContextPropagationDecorator decorator = new ContextPropagationDecorator(registry);
        TENANT.set("acme");
        failing.set("x");
        Callable<String> wrapped = decorator.decorate(() -> "ran");
        TENANT.remove();
        failing.remove();
        String outcome = onDrainThread(() -> {
            try {
                return wrapped.call();
            } catch (Throwable failure) {
                return failure.getMessage() + ", tenant after: " + TENANT.get();
            }
        });
        assertThat(outcome).isEqualTo("cannot set x, tenant after: null");
    }

    @Test
    void anEmptyMdcIsNothingToPropagate() {
        MDC.put("user", "bob");
        MDC.remove("user"); // Logback keeps an empty map behind
        assertThat(new MdcAccessor().getValue()).isNull();
        MDC.put("user", "bob");
        assertThat(new MdcAccessor().getValue()).isEqualTo(java.util.Map.of("user", "bob"));
    }

    @Test
    void aDecoratorFailureOnCaptureReachesTheSubmitter() {
        ContextRegistry registry = new ContextRegistry();
        registry.registerThreadLocalAccessor(new ThreadLocalAccessor<String>() {
            @Override
            public Object key() {
                return "broken";
            }

            @Override
            public String getValue() {
                throw new IllegalStateException("broken accessor");
            }

            @Override
            public void setValue(String value) {
            }
        });
        RendererSyncContext ctx = RendererSyncContext.builder().executor(drainThread)
                .queuedCallbackDecorator(new ContextPropagationDecorator(registry)).build();
        assertThatThrownBy(() -> ctx.post(() -> { })).hasMessage("broken accessor");
        assertThat(ctx.queueDepth()).isZero();
    }
}
