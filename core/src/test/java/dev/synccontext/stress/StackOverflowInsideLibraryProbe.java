package dev.synccontext.stress;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A known limit, not part of the default build: a {@code StackOverflowError} that strikes inside the
 * library's own frames, between a reservation CAS and the code that would undo it, leaves the
 * context wedged. A caller at the very edge of its stack calls {@code invokeAsync}/{@code post}/
 * {@code send}; the claim (or reservation) succeeds, then a deeper call (the thread-local frame
 * lookup, the owner-token store, the enqueue) overflows. Then every later callback queues behind an
 * owner that will never release, or a drain spins forever in {@code poll()} waiting for a node that
 * will never be linked (pinning a pool thread). Callbacks that themselves overflow are handled (see
 * {@code CallbackFaultTest}); this is about the caller overflowing inside the call.
 *
 * <p>Run with {@code -Dstress.knownLimits=true}. It recurses until the stack overflows, calling
 * into a fresh context at every level, then checks that the context still serves.
 */
@EnabledIfSystemProperty(named = "stress.knownLimits", matches = "true")
class StackOverflowInsideLibraryProbe {

    private static final int TRIALS = 300;

    @Test
    void contextStillServesAfterItsCallerOverflowedTheStackInsideACall() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r);
            t.setDaemon(true);
            return t;
        });
        List<String> wedged = new ArrayList<>();
        for (int trial = 0; trial < TRIALS; trial++) {
            RendererSyncContext ctx = RendererSyncContext.builder().executor(pool).build();
            int kind = trial % 3;
            Thread t = new Thread(null, () -> {
                try {
                    recurse(ctx, kind);
                } catch (StackOverflowError expected) {
                    // where it struck decides whether the context survived
                }
            }, "overflowing-caller", 256 * 1024);
            t.start();
            t.join();
            CompletableFuture<Integer> probe = ctx.invokeAsync(() -> 1);
            try {
                probe.get(5, TimeUnit.SECONDS);
            } catch (TimeoutException stuck) {
                wedged.add("trial " + trial + " (" + (kind == 0 ? "invokeAsync" : kind == 1 ? "post" : "send")
                        + "): " + ctx);
            }
        }
        assertThat(wedged).as("contexts wedged by a StackOverflowError inside a call, of %d", TRIALS).isEmpty();
    }

    private static void recurse(RendererSyncContext ctx, int kind) {
        switch (kind) {
            case 0 -> ctx.invokeAsync(() -> { });
            case 1 -> ctx.post(() -> { });
            default -> ctx.send(() -> { });
        }
        recurse(ctx, kind);
    }
}
