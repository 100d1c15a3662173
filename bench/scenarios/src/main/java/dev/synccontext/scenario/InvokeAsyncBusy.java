package dev.synccontext.scenario;

import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.jspecify.annotations.Nullable;

/**
 * {@code InvokeAsyncBusy}: 1000 × { {@code gate = new CompletableFuture<Void>()};
 * {@code f = ctx.invokeAsyncStage(() -> gate)}; {@code gate.complete(null)}; {@code f.join()} }: an
 * asynchronous callback whose stage completes outside the context. The gate is allocated per call,
 * as in the reference benchmark (docs/DESIGN.md); the callable is one preallocated instance that reads the current gate. Verifies
 * per call that the synchronous part ran exactly once and the future completed normally.
 */
final class InvokeAsyncBusy extends LoopScenario {

    static final String NAME = "InvokeAsyncBusy";
    static final int CALLS = 1000;

    private @Nullable CompletableFuture<Void> gate;
    private int started;
    private final Callable<CompletionStage<Void>> callback = () -> {
        started++;
        return gate;
    };

    InvokeAsyncBusy(Duration patience) {
        super(NAME, CALLS, patience);
    }

    @Override
    void loop(RendererSyncContext context) throws Exception {
        started = 0;
        for (int i = 0; i < CALLS; i++) {
            CompletableFuture<Void> g = new CompletableFuture<>();
            gate = g;
            CompletableFuture<Void> f = context.invokeAsyncStage(callback);
            g.complete(null);
            await(f, context, "invokeAsyncStage", i);
            if (started != i + 1) {
                verify(false, context, (i + 1) + " synchronous parts run after call #" + i, started);
            }
        }
        gate = null;
    }
}
