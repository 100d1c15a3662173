package dev.synccontext.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.ManualExecutor;
import dev.synccontext.RendererSyncContext;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/**
 * The contract, against the baseline: it is slow, not wrong. {@link RendererSyncContext#current()}
 * is the one documented exception (see {@link BaselineSyncContext}); its own
 * {@link BaselineSyncContext#currentBaseline()} is checked instead.
 */
class BaselineContextContractTest extends SyncContextContract {

    @Override
    RendererSyncContext newContext(String name, Executor executor, int maxQueueDepth,
            BiConsumer<RendererSyncContext, Throwable> handler) {
        return new BaselineSyncContext(name, executor, maxQueueDepth, handler);
    }

    @Test
    void currentBaselineNamesTheContextInsideACallbackAndIsRestoredAfter() {
        ManualExecutor executor = new ManualExecutor();
        BaselineSyncContext ctx = new BaselineSyncContext("baseline", executor);
        Optional<BaselineSyncContext>[] inside = new Optional[2];
        ctx.invokeAsync(() -> inside[0] = BaselineSyncContext.currentBaseline()).join();
        ctx.post(() -> inside[1] = BaselineSyncContext.currentBaseline());
        executor.runUntilIdle();
        assertThat(inside[0]).containsSame(ctx);
        assertThat(inside[1]).containsSame(ctx);
        assertThat(BaselineSyncContext.currentBaseline()).isEmpty();
    }
}
