package dev.synccontext.scenario;

import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * {@code PostSerial}: one {@code invokeAsync} whose callback re-posts itself onto the same context
 * 1000 times (the JVM analogue of awaiting {@code Task.Yield()} inside the context); the caller joins
 * the last step. The step is one preallocated instance, so what the loop allocates is what the
 * context allocates. Each step checks that it runs inside the context; after the join the scenario
 * verifies that exactly 1 + 1000 steps ran.
 */
final class PostSerial extends LoopScenario {

    static final String NAME = "PostSerial";
    static final int POSTS = 1000;

    private @Nullable RendererSyncContext context;
    private @Nullable CompletableFuture<Void> last;
    private int steps;
    private int outside;
    private final Runnable step = this::step;

    PostSerial(Duration patience) {
        super(NAME, POSTS, patience);
    }

    @Override
    void loop(RendererSyncContext ctx) throws Exception {
        context = ctx;
        steps = 0;
        outside = 0;
        CompletableFuture<Void> done = new CompletableFuture<>();
        last = done;
        await(ctx.invokeAsync(step), ctx, "the first step");
        await(done, ctx, "the last of " + POSTS + " re-posted steps");
        verify(steps == POSTS + 1 && outside == 0, ctx,
                (POSTS + 1) + " steps, all inside the context", steps + " steps, " + outside + " outside");
        context = null;
    }

    @SuppressWarnings("NullAway") // loop() sets both fields before the first step, clears context after the last
    private void step() {
        if (!context.checkAccess()) {
            outside++;
        }
        if (steps++ == POSTS) {
            last.complete(null);
        } else {
            context.post(step);
        }
    }
}
