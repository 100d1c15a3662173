package dev.synccontext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.testing.PooledTest;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** Rule 4: invokeAsync* never throw; cancellation; posts reach the handler; handlers cannot stall. */
class ExceptionsTest extends PooledTest {

    @Test
    void invokeAsyncNeverThrowsAtTheCallerInlineQueuedOrNested() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        Runnable boom = throwing(() -> new IllegalStateException("boom"));
        Runs runs = inlineThenQueued(ctx, boom);
        CompletableFuture<CompletableFuture<Void>> nested = ctx.invokeAsync(() -> ctx.invokeAsync(boom));

        assertThat(runs.inline()).isCompletedExceptionally();
        assertThatThrownBy(() -> runs.queued().get(10, TimeUnit.SECONDS))
                .hasCauseInstanceOf(IllegalStateException.class);
        assertThat(nested.get(10, TimeUnit.SECONDS)).isCompletedExceptionally();
    }

    @Test
    void aCancellationExceptionFromTheCallbackMakesTheFutureCancelled() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        Runs runs = inlineThenQueued(ctx, throwing(() -> new CancellationException("gave up")));
        runs.queued().handle((v, e) -> null).get(10, TimeUnit.SECONDS);
        assertThat(runs.inline().isCancelled()).as("inline").isTrue();
        assertThat(runs.queued().isCancelled()).as("queued").isTrue();
    }

    @Test
    void aFailingPostReachesTheHandlerOnTheDrainThreadInsideTheContext() throws Exception {
        List<Throwable> handled = new CopyOnWriteArrayList<>();
        CompletableFuture<Boolean> accessInHandler = new CompletableFuture<>();
        RendererSyncContext[] self = new RendererSyncContext[1];
        RendererSyncContext ctx = RendererSyncContext.builder().executor(pool)
                .unhandledExceptionHandler((c, t) -> {
                    handled.add(t);
                    accessInHandler.complete(c == self[0] && c.checkAccess());
                }).build();
        self[0] = ctx;

        ctx.post(() -> {
            throw new IllegalStateException("posted failure");
        });

        assertThat(accessInHandler.get(10, TimeUnit.SECONDS)).as("handler runs inside the context").isTrue();
        assertThat(handled).singleElement().satisfies(t -> assertThat(t).hasMessage("posted failure"));
        assertThat(ctx.unhandledExceptionCount()).isEqualTo(1);
    }

    @Test
    void theDefaultHandlerLogsAtErrorWithTheExceptionAndCounts() throws Exception {
        Logger logger = Logger.getLogger(RendererSyncContext.class.getName());
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(capture);
        try {
            RendererSyncContext ctx = RendererSyncContext.builder().name("logged").executor(pool).build();
            IllegalStateException failure = new IllegalStateException("posted failure");
            ctx.post(() -> {
                throw failure;
            });
            ctx.invokeAsync(() -> { }).get(10, TimeUnit.SECONDS);
            CompletableFuture<Void> barrier = new CompletableFuture<>();
            ctx.post(() -> barrier.complete(null));
            barrier.get(10, TimeUnit.SECONDS);

            assertThat(ctx.unhandledExceptionCount()).isEqualTo(1);
            assertThat(records).anySatisfy(r -> {
                assertThat(r.getLevel()).isEqualTo(Level.SEVERE);
                assertThat(r.getMessage()).contains("'logged'");
                assertThat(r.getThrown()).isSameAs(failure);
            });
        } finally {
            logger.removeHandler(capture);
        }
    }

    @Test
    void aHandlerThatThrowsDoesNotStallTheQueue() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.builder().executor(pool)
                .unhandledExceptionHandler((c, t) -> {
                    throw new IllegalStateException("handler failed too");
                }).build();
        List<String> ran = new CopyOnWriteArrayList<>();

        ctx.post(() -> {
            throw new IllegalStateException("first");
        });
        ctx.post(() -> ran.add("second"));
        CompletableFuture<Void> barrier = new CompletableFuture<>();
        ctx.post(() -> barrier.complete(null));

        barrier.get(10, TimeUnit.SECONDS);
        assertThat(ran).containsExactly("second");
        assertThat(ctx.unhandledExceptionCount()).isEqualTo(1);
    }

    @Test
    void errorsFromCallbacksAreContainedToo() throws Exception {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        CompletableFuture<Void> overflow = ctx.invokeAsync(ExceptionsTest::recurseForever);

        assertThatThrownBy(overflow::join).hasCauseInstanceOf(StackOverflowError.class);
        assertThat(ctx.invokeAsync(() -> "alive").get(10, TimeUnit.SECONDS)).isEqualTo("alive");
    }

    @Test
    void nullArgumentsThrowNullPointerExceptionAtTheCall() {
        RendererSyncContext ctx = RendererSyncContext.create(pool);
        assertThatThrownBy(() -> ctx.invokeAsync((Runnable) null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> ctx.invokeAsync((java.util.concurrent.Callable<?>) null))
                .isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> ctx.invokeAsyncStage(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> ctx.post(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> ctx.execute(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> ctx.send(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> ctx.awaitTermination(null)).isInstanceOf(NullPointerException.class);
    }

    private static void recurseForever() {
        recurseForever();
    }

    /** The futures of {@code callback} run inline on the idle context, then queued behind an occupier. */
    private record Runs(CompletableFuture<Void> inline, CompletableFuture<Void> queued) {
    }

    /** A callback that throws a new exception from {@code exception} each time it runs. */
    private static Runnable throwing(Supplier<RuntimeException> exception) {
        return () -> {
            throw exception.get();
        };
    }

    private static Runs inlineThenQueued(RendererSyncContext ctx, Runnable callback) {
        CompletableFuture<Void> inline = ctx.invokeAsync(callback);
        try (Occupier occupier = Occupier.occupy(ctx)) {
            return new Runs(inline, ctx.invokeAsync(callback));
        }
    }
}
