package dev.synccontext.spring.propagation;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.testing.NoThreadLeftStuck;
import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ThreadLocalAccessor;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
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

    @Test
    void queuedCallbackRunsWithTheSubmittersMdcAndThreadLocalsAndClearsThemAfterwards() throws Exception {
        RendererSyncContext ctx = context();
        MDC.put("user", "alice");
        TENANT.set("acme");
        CompletableFuture<String> seen = new CompletableFuture<>();
        ctx.post(() -> seen.complete(MDC.get("user") + "/" + TENANT.get()));
        assertThat(seen.get(10, TimeUnit.SECONDS)).isEqualTo("alice/acme");

        CompletableFuture<String> after = new CompletableFuture<>();
        drainThread.execute(() -> after.complete(MDC.get("user") + "/" + TENANT.get()));
        assertThat(after.get(10, TimeUnit.SECONDS)).as("the drain thread keeps nothing afterwards").isEqualTo("null/null");
    }

    @Test
    void aCallbackDoesNotSeeWhatThePreviousTaskOfItsPoolThreadLeftBehind() throws Exception {
        RendererSyncContext ctx = context();
        CountDownLatch leaked = new CountDownLatch(1);
        drainThread.execute(() -> {
            MDC.put("user", "stale"); // a sloppy task that does not clean up
            leaked.countDown();
        });
        assertThat(leaked.await(10, TimeUnit.SECONDS)).isTrue();
        MDC.put("user", "bob");
        MDC.remove("user"); // submitter has no user
        CompletableFuture<String> seen = new CompletableFuture<>();
        ctx.post(() -> seen.complete(String.valueOf(MDC.get("user"))));
        assertThat(seen.get(10, TimeUnit.SECONDS)).isEqualTo("null");
    }

    @Test
    void queuedInvokeAsyncCallablesAreDecoratedToo() throws Exception {
        RendererSyncContext ctx = context();
        CountDownLatch gate = new CountDownLatch(1);
        CompletableFuture<Void> running = new CompletableFuture<>();
        ctx.post(() -> {
            running.complete(null);
            try {
                gate.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        running.join();
        TENANT.set("globex");
        CompletableFuture<String> queued = ctx.invokeAsync(TENANT::get);
        TENANT.remove();
        gate.countDown();
        assertThat(queued.get(10, TimeUnit.SECONDS)).isEqualTo("globex");
    }
    @Test
    void theRunningThreadGetsItsOwnValuesBackAfterTheCallback() throws Exception {
        RendererSyncContext ctx = context();
        CountDownLatch primed = new CountDownLatch(1);
        drainThread.execute(() -> {
            MDC.put("user", "drain-owner"); // what the pool thread holds of its own
            TENANT.set("drain-tenant");
            primed.countDown();
        });
        assertThat(primed.await(10, TimeUnit.SECONDS)).isTrue();
        TENANT.set("acme"); // the submitter: a tenant, no MDC
        CompletableFuture<String> seen = new CompletableFuture<>();
        ctx.post(() -> seen.complete(MDC.get("user") + "/" + TENANT.get()));
        assertThat(seen.get(10, TimeUnit.SECONDS)).as("captured values set, others cleared").isEqualTo("null/acme");

        CompletableFuture<String> after = new CompletableFuture<>();
        drainThread.execute(() -> after.complete(MDC.get("user") + "/" + TENANT.get()));
        assertThat(after.get(10, TimeUnit.SECONDS)).as("the thread's own values restored")
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

        CompletableFuture<Object> after = new CompletableFuture<>();
        drainThread.execute(() -> after.complete(String.valueOf(observations.getCurrentObservation())));
        assertThat(after.get(10, TimeUnit.SECONDS)).as("no observation left in scope on the drain thread")
                .isEqualTo("null");
        request.stop();
    }

    @Test
    void whenAnAccessorFailsToSetItsValueTheOnesSetBeforeAreRestoredAndTheCallbackDoesNotRun() throws Exception {
        ThreadLocal<String> failing = new ThreadLocal<>();
        ContextRegistry registry = new ContextRegistry();
        registry.registerThreadLocalAccessor("tenant", TENANT);
        registry.registerThreadLocalAccessor(new ThreadLocalAccessor<String>() {
            @Override
            public Object key() {
                return "failing";
            }

            @Override
            public String getValue() {
                return failing.get();
            }

            @Override
            public void setValue(String value) {
                throw new IllegalStateException("cannot set " + value);
            }

            @Override
            public void setValue() {
                failing.remove();
            }
        });
        ContextPropagationDecorator decorator = new ContextPropagationDecorator(registry);
        TENANT.set("acme");
        failing.set("x");
        Callable<String> wrapped = decorator.decorate(() -> "ran");
        TENANT.remove();
        failing.remove();
        CompletableFuture<Object> outcome = new CompletableFuture<>();
        drainThread.execute(() -> {
            try {
                outcome.complete(wrapped.call());
            } catch (Throwable failure) {
                outcome.complete(failure.getMessage() + ", tenant after: " + TENANT.get());
            }
        });
        assertThat(outcome.get(10, TimeUnit.SECONDS)).isEqualTo("cannot set x, tenant after: null");
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
