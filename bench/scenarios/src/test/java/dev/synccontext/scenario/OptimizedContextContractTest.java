package dev.synccontext.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.ManualExecutor;
import dev.synccontext.RendererSyncContext;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/** The contract, against the real context built as the application builds it. */
class OptimizedContextContractTest extends SyncContextContract {

    @Override
    RendererSyncContext newContext(String name, Executor executor, int maxQueueDepth,
            BiConsumer<RendererSyncContext, Throwable> handler) {
        RendererSyncContext.Builder builder = RendererSyncContext.builder().name(name).executor(executor)
                .maxQueueDepth(maxQueueDepth);
        if (handler != null) {
            builder.unhandledExceptionHandler(handler);
        }
        return builder.build();
    }

    @Test
    void currentNamesTheContextInsideACallbackAndIsRestoredAfter() {
        RendererSyncContext ctx = newContext(new ManualExecutor());
        Optional<RendererSyncContext>[] inside = new Optional[1];
        ctx.invokeAsync(() -> inside[0] = RendererSyncContext.current()).join();
        assertThat(inside[0]).containsSame(ctx);
        assertThat(RendererSyncContext.current()).isEmpty();
    }
}
