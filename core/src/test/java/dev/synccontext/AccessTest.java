package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.testing.PooledTest;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Rule 5: checkAccess, current() and assertAccess follow the ownership token, on every path. */
class AccessTest extends PooledTest {

    @Test
    void checkAccessIsTrueExactlyWhileACallbackRuns() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        List<Boolean> seen = new CopyOnWriteArrayList<>();

        seen.add(ctx.checkAccess());                                   // outside
        ctx.invokeAsync(() -> seen.add(ctx.checkAccess()));            // inline
        ctx.invokeAsync(() -> ctx.invokeAsync(() -> seen.add(ctx.checkAccess()))); // nested
        seen.add(ctx.checkAccess());                                   // after
        CompletableFuture<Boolean> queued;
        try (Occupier occupier = Occupier.occupy(ctx)) {
            queued = ctx.invokeAsync(ctx::checkAccess);
        }
        ctx.send(() -> seen.add(ctx.checkAccess()));                   // send

        assertThat(seen).containsExactly(false, true, true, false, true);
        assertThat(queued.get(10, TimeUnit.SECONDS)).as("queued callback on the drain").isTrue();
    }

    @Test
    void anotherThreadNeverSeesAccessWhileACallbackRuns() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        try (Occupier occupier = Occupier.occupy(ctx)) {
            assertThat(ctx.checkAccess()).isFalse();
            assertThat(pool.submit(ctx::checkAccess).get(10, TimeUnit.SECONDS)).isFalse();
        }
    }

    @Test
    void aPoolThreadThatRanADrainHasNoAccessAfterwards() throws Exception {
        ExecutorService single = Executors.newSingleThreadExecutor();
        try {
            RendererSyncContext ctx = RendererSyncContext.create(single);
            CompletableFuture<Void> done = new CompletableFuture<>();
            ctx.post(() -> done.complete(null));
            done.get(10, TimeUnit.SECONDS);
            // The same pool thread, later, outside any callback: no leaked access, no leaked current().
            assertThat(single.submit(ctx::checkAccess).get(10, TimeUnit.SECONDS)).isFalse();
            assertThat(single.submit(() -> RendererSyncContext.current().isPresent()).get(10, TimeUnit.SECONDS))
                    .isFalse();
        } finally {
            single.shutdownNow();
        }
    }

    @Test
    void currentIsTheInnermostContextAndIsRestoredOnEveryPath() {
        RendererSyncContext outer = RendererSyncContext.builder().name("outer").executor(pool).build();
        RendererSyncContext inner = RendererSyncContext.builder().name("inner").executor(pool).build();
        List<Optional<RendererSyncContext>> seen = new CopyOnWriteArrayList<>();

        seen.add(RendererSyncContext.current());
        outer.invokeAsync(() -> {
            seen.add(RendererSyncContext.current());
            inner.invokeAsync(() -> seen.add(RendererSyncContext.current()));
            seen.add(RendererSyncContext.current());
            inner.invokeAsync(() -> {
                throw new IllegalStateException("throws inside inner");
            });
            seen.add(RendererSyncContext.current());
            try {
                inner.send(() -> {
                    throw new IllegalStateException("send throws inside inner");
                });
            } catch (IllegalStateException expected) {
                seen.add(RendererSyncContext.current());
            }
        });
        seen.add(RendererSyncContext.current());

        assertThat(seen).containsExactly(Optional.empty(), Optional.of(outer), Optional.of(inner),
                Optional.of(outer), Optional.of(outer), Optional.of(outer), Optional.empty());
    }

    @Test
    void assertAccessNamesTheContextAndPointsToInvokeAsync() {
        RendererSyncContext ctx = RendererSyncContext.builder().name("board-7").executor(pool).build();

        assertThatThrownBy(ctx::assertAccess).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'board-7'").hasMessageContaining("invokeAsync");
        ctx.invokeAsync(ctx::assertAccess).join();
    }
}
