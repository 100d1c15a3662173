package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.testing.PooledTest;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The observer sees every callback with its path and outcome; the decorator wraps queued ones only. */
class ObserverAndDecoratorTest extends PooledTest {

    record Event(CallbackPath path, CallbackOutcome outcome) {
    }

    @Test
    void everyCallbackIsReportedWithItsPathAndOutcome() throws Exception {
        List<Event> events = new CopyOnWriteArrayList<>();
        List<Long> sampledWaits = new CopyOnWriteArrayList<>();
        RendererSyncContext ctx = RendererSyncContext.builder().executor(pool).maxQueueDepth(1)
                .unhandledExceptionHandler((c, t) -> { })
                .observer(new SyncContextObserver() {
                    @Override
                    public void callbackFinished(RendererSyncContext context, CallbackPath path, CallbackOutcome outcome) {
                        events.add(new Event(path, outcome));
                    }

                    @Override
                    public void callbackSampled(RendererSyncContext context, CallbackPath path, long waitNanos,
                            long runNanos, long allocatedBytes) {
                        if (path == CallbackPath.QUEUED) {
                            sampledWaits.add(waitNanos);
                        }
                    }

                    @Override
                    public int samplingInterval() {
                        return 1;
                    }
                }).build();

        ctx.invokeAsync(() -> ctx.invokeAsync(() -> { }));                 // inline success + nested success
        ctx.send(() -> { });                                                // send success
        ctx.invokeAsync(() -> {
            throw new IllegalStateException();
        });                                                                 // inline failure
        CompletableFuture<Void> queued;
        try (Occupier occupier = Occupier.occupy(ctx)) {                    // inline success (occupier)
            queued = ctx.invokeAsync(() -> { });                            // queued success
            ctx.invokeAsync(() -> { });                                     // rejected: full
        }
        queued.get(10, TimeUnit.SECONDS);

        assertThat(events).contains(new Event(CallbackPath.NESTED, CallbackOutcome.SUCCESS),
                new Event(CallbackPath.INLINE, CallbackOutcome.SUCCESS), new Event(CallbackPath.SEND, CallbackOutcome.SUCCESS),
                new Event(CallbackPath.INLINE, CallbackOutcome.FAILURE), new Event(CallbackPath.QUEUED, CallbackOutcome.REJECTED));
        awaitEvent(events, new Event(CallbackPath.QUEUED, CallbackOutcome.SUCCESS));
        assertThat(sampledWaits).isNotEmpty().allSatisfy(w -> assertThat(w).isNotNegative());
    }

    @Test
    void theDecoratorWrapsQueuedCallbacksOnTheSubmittingThreadAndNeverInlineOnes() throws Exception {
        AtomicInteger decorated = new AtomicInteger();
        ThreadLocal<String> submitter = new ThreadLocal<>();
        List<String> seenOnDrain = new CopyOnWriteArrayList<>();
        RendererSyncContext ctx = RendererSyncContext.builder().executor(pool)
                .queuedCallbackDecorator(new CallbackDecorator() {
                    @Override
                    public Runnable decorate(Runnable callback) {
                        decorated.incrementAndGet();
                        String captured = submitter.get();
                        return () -> {
                            submitter.set(captured);
                            try {
                                callback.run();
                            } finally {
                                submitter.remove();
                            }
                        };
                    }

                    @Override
                    public <T> Callable<T> decorate(Callable<T> callback) {
                        decorated.incrementAndGet();
                        return callback;
                    }
                }).build();
        submitter.set("request-1");

        ctx.invokeAsync(() -> { });                // inline: not decorated
        assertThat(decorated).hasValue(0);
        CompletableFuture<Void> done = new CompletableFuture<>();
        ctx.post(() -> {
            seenOnDrain.add(submitter.get());
            done.complete(null);
        });
        done.get(10, TimeUnit.SECONDS);

        assertThat(decorated).hasValue(1);
        assertThat(seenOnDrain).containsExactly("request-1");
        submitter.remove();
    }

    private static void awaitEvent(List<Event> events, Event expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!events.contains(expected)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no " + expected + " in " + events);
            }
            Thread.sleep(1);
        }
    }
}
