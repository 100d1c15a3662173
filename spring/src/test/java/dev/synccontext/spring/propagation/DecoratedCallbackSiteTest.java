package dev.synccontext.spring.propagation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.BlockedCallback;
import dev.synccontext.Occupier;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.SyncContextObserver;
import dev.synccontext.spring.CompositeCallbackDecorator;
import dev.synccontext.spring.observation.QueuedCallbackObservations;
import dev.synccontext.testing.NoThreadLeftStuck;
import io.micrometer.context.ContextRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A blocked queued callback's report names the application's line as its callback site, not the frame of
 * the Spring library's decorator that runs it: the propagation decorator (and the observation decorator
 * inside it) sit between the drain and the callback on every queued callback of a starter-built context.
 */
class DecoratedCallbackSiteTest {

    @RegisterExtension
    final NoThreadLeftStuck threads = new NoThreadLeftStuck();

    private final ExecutorService drainThread = threads.fixedPool(1);

    @Test
    void aBlockedCallbackBehindThePropagationAndObservationDecoratorsIsReportedAtTheApplicationsLine()
            throws Exception {
        CompletableFuture<BlockedCallback> report = new CompletableFuture<>();
        ObservationRegistry observations = ObservationRegistry.create();
        observations.observationConfig().observationHandler(context -> true);
        RendererSyncContext ctx = RendererSyncContext.builder().executor(drainThread).name("decorated")
                .blockedThreshold(Duration.ofMillis(50))
                .queuedCallbackDecorator(new CompositeCallbackDecorator(List.of(
                        new QueuedCallbackObservations(observations),
                        new ContextPropagationDecorator(new ContextRegistry().loadThreadLocalAccessors()))))
                .observer(new SyncContextObserver() {
                    @Override
                    public void callbackBlocked(BlockedCallback blocked) {
                        report.complete(blocked);
                    }
                }).build();
        CountDownLatch release = new CountDownLatch(1);
        try {
            ctx.post(() -> Occupier.awaitUninterruptibly(release)); // post: always queued, so run by the decorators
            BlockedCallback blocked = report.get(30, TimeUnit.SECONDS);
            assertThat(blocked.stack()).as("the premise: the decorators' frames are on the stack")
                    .anyMatch(f -> f.getClassName().startsWith(ThreadLocalSnapshot.class.getName()))
                    .anyMatch(f -> f.getClassName().startsWith(QueuedCallbackObservations.class.getName()));
            assertThat(blocked.callbackSite()).as("the callback site of " + blocked.stack()).isNotNull();
            assertThat(blocked.callbackSite().getClassName()).isEqualTo(DecoratedCallbackSiteTest.class.getName());
            assertThat(blocked.callbackSite().getMethodName()).startsWith("lambda$aBlockedCallback");
        } finally {
            release.countDown();
            ctx.close();
        }
    }
}
