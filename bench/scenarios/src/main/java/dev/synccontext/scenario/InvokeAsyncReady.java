package dev.synccontext.scenario;

import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * {@code InvokeAsyncReady}: 1000 × {@code ctx.invokeAsync(() -> {}).join()} on an idle context; the
 * idle path of docs/DESIGN.md, "Performance rules" (claim, run inline, release). The callback is one preallocated instance, so
 * what the loop allocates is what the context allocates. Verifies after each join that the callback
 * ran, exactly once.
 */
final class InvokeAsyncReady extends LoopScenario {

    static final String NAME = "InvokeAsyncReady";
    static final int CALLS = 1000;

    private int ran;
    private final Runnable callback = () -> ran++;

    InvokeAsyncReady(Duration patience) {
        super(NAME, CALLS, patience);
    }

    @Override
    void loop(RendererSyncContext context) throws Exception {
        ran = 0;
        for (int i = 0; i < CALLS; i++) {
            CompletableFuture<Void> done = context.invokeAsync(callback);
            await(done, context, "invokeAsync", i);
            if (ran != i + 1) {
                verify(false, context, (i + 1) + " callbacks run after call #" + i, ran);
            }
        }
    }
}
