package dev.synccontext.spring.observation;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.testing.NoThreadLeftStuck;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class QueuedCallbackObservationsTest {

    @RegisterExtension
    final NoThreadLeftStuck threads = new NoThreadLeftStuck();

    private final ExecutorService drainThread = threads.fixedPool(1);
    private final TestObservationRegistry registry = TestObservationRegistry.create();

    private RendererSyncContext context(QueuedCallbackObservations observations) {
        return RendererSyncContext.builder().executor(drainThread).scope("session").name("session-7")
                .queuedCallbackDecorator(observations).build();
    }

    /** Makes {@code ctx} busy until the returned latch is counted down. */
    private static CountDownLatch hold(RendererSyncContext ctx) throws InterruptedException {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch holding = new CountDownLatch(1);
        ctx.post(() -> {
            holding.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(holding.await(30, TimeUnit.SECONDS)).as("the holding callback started").isTrue();
        return release;
    }

    @Test
    void aQueuedCallbackRecordsItsRunAsAChildOfTheSubmittersObservationWithItsWait() throws Exception {
        RendererSyncContext ctx = context(new QueuedCallbackObservations(registry));
        CountDownLatch release = hold(ctx);
        registry.clear(); // the holding post had no parent; this test is about the next one
        Observation request = Observation.start("request", registry);
        AtomicReference<Observation> currentInside = new AtomicReference<>();
        CompletableFuture<Void> done;
        try (Observation.Scope scope = request.openScope()) {
            done = ctx.invokeAsync(() -> currentInside.set(registry.getCurrentObservation()));
        }
        long queuedBy = System.nanoTime(); // the callback was queued before this, and cannot start before release
        Thread.onSpinWait();
        long heldFor = System.nanoTime() - queuedBy;
        release.countDown();
        done.get(30, TimeUnit.SECONDS);
        request.stop();

        assertThat(registry).hasObservationWithNameEqualTo(DefaultQueuedCallbackObservationConvention.NAME)
                .that().hasBeenStarted().hasBeenStopped()
                .hasContextualNameEqualTo("queued session")
                .hasLowCardinalityKeyValue("scope", "session")
                .hasLowCardinalityKeyValue("path", "queued")
                .hasLowCardinalityKeyValue("outcome", "success")
                .hasHighCardinalityKeyValue("synccontext.context", "session-7")
                .hasParentObservationEqualTo(request);
        assertThat(currentInside.get()).as("the observation current inside the callback").isNotNull();
        QueuedCallbackContext observed = (QueuedCallbackContext) currentInside.get().getContext();
        assertThat(observed.getQueueWaitNanos()).as("the wait, from queueing to start")
                .isGreaterThanOrEqualTo(heldFor);
        KeyValue wait = observed.getHighCardinalityKeyValue("synccontext.queue.wait");
        assertThat(Double.parseDouble(wait.getValue())).as("the wait key, in milliseconds").isGreaterThanOrEqualTo(heldFor / 1e6);
        assertThat(registry.getCurrentObservation()).as("current on the test thread afterwards").isNull();
        ctx.close();
    }

    @Test
    void inlineAndSentCallbacksRecordNothing() throws Exception {
        RendererSyncContext ctx = context(new QueuedCallbackObservations(registry));
        ctx.invokeAsync(() -> { }).get(30, TimeUnit.SECONDS);
        ctx.send(() -> { });
        assertThat(registry).doesNotHaveAnyObservation();
        ctx.close();
    }

    @Test
    void aFailingOrCancelledCallbackRecordsItsOutcomeAndError() throws Exception {
        RendererSyncContext ctx = context(new QueuedCallbackObservations(registry));
        CountDownLatch release = hold(ctx);
        registry.clear();
        IllegalStateException boom = new IllegalStateException("boom");
        CompletableFuture<Object> failed = ctx.invokeAsync((Callable<Object>) () -> { throw boom; });
        CompletableFuture<Object> cancelled = ctx.invokeAsync((Callable<Object>) () -> {
            throw new CancellationException("stop");
        });
        release.countDown();
        assertThat(failed).failsWithin(30, TimeUnit.SECONDS);
        assertThat(cancelled).failsWithin(30, TimeUnit.SECONDS);

        assertThat(registry).hasNumberOfObservationsEqualTo(2);
        assertThat(registry).hasAnObservation(o -> o.hasLowCardinalityKeyValue("outcome", "failure").hasError(boom));
        assertThat(registry).hasAnObservation(o -> o.hasLowCardinalityKeyValue("outcome", "cancelled"));
        ctx.close();
    }

    @Test
    void aReplacedConventionNamesAndTagsTheObservation() throws Exception {
        QueuedCallbackObservationConvention custom = new DefaultQueuedCallbackObservationConvention() {
            @Override
            public String getName() {
                return "app.queued";
            }
        };
        RendererSyncContext ctx = context(new QueuedCallbackObservations(registry, custom));
        CompletableFuture<Void> ran = new CompletableFuture<>();
        ctx.post(() -> ran.complete(null)); // a post always queues
        ran.get(30, TimeUnit.SECONDS);
        ctx.close();
        assertThat(ctx.awaitTermination(java.time.Duration.ofSeconds(30))).isTrue();
        assertThat(registry).hasObservationWithNameEqualTo("app.queued").that()
                .hasLowCardinalityKeyValue("scope", "session").doesNotHaveParentObservation();
    }

    @Test
    void withANoopRegistryCallbacksAreNotWrapped() {
        QueuedCallbackObservations observations = new QueuedCallbackObservations(ObservationRegistry.NOOP);
        Runnable runnable = () -> { };
        Callable<String> callable = () -> "x";
        assertThat(observations.decorate(runnable)).isSameAs(runnable);
        assertThat(observations.decorate(callable)).isSameAs(callable);
    }
}
