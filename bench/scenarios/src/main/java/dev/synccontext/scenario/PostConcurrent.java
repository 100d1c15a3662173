package dev.synccontext.scenario;

import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * {@code PostConcurrent}: 10,000 {@code ctx.post(...)} from one outside thread while the context
 * drains them; the post that brings a counter to zero completes a future, which the caller joins.
 * Each post carries its index (the steps are preallocated once per instance, so the loop allocates
 * only what the context allocates) and checks that it runs in FIFO order; the counter is a plain
 * field, so lost updates from a context that runs two callbacks at once show as well. After the join
 * the scenario verifies: counter exactly zero, all 10,000 ran, none out of order.
 */
final class PostConcurrent extends LoopScenario {

    static final String NAME = "PostConcurrent";
    static final int POSTS = 10_000;

    private final Runnable[] steps = new Runnable[POSTS];
    private @Nullable CompletableFuture<Void> drained;
    private int remaining;
    private int next;
    private int outOfOrder;
    private int firstOutOfOrder = -1;

    PostConcurrent(Duration patience) {
        super(NAME, POSTS, patience);
        for (int i = 0; i < POSTS; i++) {
            int index = i;
            steps[i] = () -> step(index);
        }
    }

    @Override
    void loop(RendererSyncContext context) throws Exception {
        CompletableFuture<Void> done = new CompletableFuture<>();
        // Published to the drain by post()'s hand-off, which happens-before each step.
        drained = done;
        remaining = POSTS;
        next = 0;
        outOfOrder = 0;
        firstOutOfOrder = -1;
        for (Runnable step : steps) {
            context.post(step);
        }
        await(done, context, "the counter to reach zero");
        verify(remaining == 0 && next == POSTS && outOfOrder == 0, context,
                "counter 0 after " + POSTS + " posts run in FIFO order",
                "counter " + remaining + ", " + next + " run, " + outOfOrder
                        + " out of order (first at post #" + firstOutOfOrder + ")");
    }

    @SuppressWarnings("NullAway") // loop() sets drained before it posts the first step
    private void step(int index) {
        if (index != next && outOfOrder++ == 0) {
            firstOutOfOrder = next;
        }
        next++;
        if (--remaining == 0) {
            drained.complete(null);
        }
    }
}
