package dev.synccontext.scenario;

import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code Contended}: two threads (the caller and a {@linkplain SecondCaller second thread}) each call
 * {@code ctx.invokeAsync(callback).join()} 1000 times on one context at once, so calls keep finding
 * it busy. The callback increments a plain field: mutual exclusion is what keeps it exact. Verifies
 * after both loops that the field is exactly 2000.
 */
final class Contended extends LoopScenario {

    static final String NAME = "Contended";
    static final int CALLS_PER_THREAD = 1000;

    private final Duration patience;
    private int count;
    private final Runnable increment = () -> count++;

    Contended(Duration patience) {
        super(NAME, 2 * CALLS_PER_THREAD, patience);
        this.patience = patience;
    }

    @Override
    void loop(RendererSyncContext context) throws Exception {
        count = 0;
        Future<Void> other = SecondCaller.start(() -> {
            calls(context);
            return null;
        });
        calls(context);
        try {
            other.get(patience.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException dropped) {
            throw new IllegalStateException(NAME + ": the second thread's calls did not finish within "
                    + patience + " on context '" + context.name() + "'", dropped);
        } catch (ExecutionException failed) {
            if (failed.getCause() instanceof IllegalStateException verdict) {
                throw verdict;
            }
            throw failed;
        }
        // Both loops joined every call, and Future.get orders the other thread's joins before this read.
        verify(count == 2 * CALLS_PER_THREAD, context, (2 * CALLS_PER_THREAD) + " increments", count);
    }

    private void calls(RendererSyncContext context) throws Exception {
        for (int i = 0; i < CALLS_PER_THREAD; i++) {
            CompletableFuture<Void> done = context.invokeAsync(increment);
            await(done, context, "invokeAsync", i);
        }
    }
}
