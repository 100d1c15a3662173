package dev.synccontext.spring.propagation;


import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.testing.NoThreadLeftStuck;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.core.task.TaskDecorator;

/** The application's TaskDecorator, adapted, around queued callbacks of a real context. */
public class TaskDecoratorCallbackDecoratorTest {

    public static final ThreadLocal<String> TENANT = new ThreadLocal<>();

    /** Sets {@code TENANT} to what the submitter had (or {@code fallback}) around the task, then clears it. */
    public static TaskDecorator tenant(String fallback) {
        return task -> {
            String captured = TENANT.get() != null ? TENANT.get() : fallback;
            return () -> {
                TENANT.set(captured);
                try {
                    task.run();
                } finally {
                    TENANT.remove();
                }
            };
        };
    }

    @RegisterExtension
    final NoThreadLeftStuck threads = new NoThreadLeftStuck();

    private final ExecutorService drain = threads.fixedPool(1);
    private final List<Throwable> seenByDecorator = new CopyOnWriteArrayList<>();
    private final TaskDecorator observing = task -> tenant("none").decorate(() -> {
        try {
            task.run();
        } catch (Throwable t) {
            seenByDecorator.add(t);
            throw t;
        }
    });
    private final RendererSyncContext context = RendererSyncContext.builder().name("decorated").executor(drain)
            .queuedCallbackDecorator(new TaskDecoratorCallbackDecorator(observing)).build();

    @AfterEach
    void closeContext() {
        context.closeNow();
    }

    @Test
    void queuedRunnablesAndCallablesRunWithWhatTheTaskDecoratorCarried() throws Exception {
        TENANT.set("acme");
        try {
            CompletableFuture<String> posted = new CompletableFuture<>();
            context.post(() -> posted.complete(TENANT.get()));
            assertThat(posted.get(10, SECONDS)).isEqualTo("acme");
            String queued = whileBusy(() -> context.invokeAsync(() -> TENANT.get())).get(10, SECONDS);
            assertThat(queued).isEqualTo("acme");
        } finally {
            TENANT.remove();
        }
    }

    @Test
    void aQueuedCallablesCheckedExceptionPassesThroughTheDecoratorUnchanged() throws Exception {
        IOException failure = new IOException("backend down");
        CompletableFuture<Object> future = whileBusy(() -> context.invokeAsync(() -> {
            throw failure;
        }));
        Throwable thrown = catchThrowable(() -> future.get(10, SECONDS));
        assertThat(thrown).isInstanceOf(ExecutionException.class).cause().isSameAs(failure);
        assertThat(seenByDecorator).as("the TaskDecorator saw the failure too").containsExactly(failure);
    }

    @Test
    void aTaskDecoratorThatDoesNotRunTheTaskIsReported() throws Exception {
        TaskDecoratorCallbackDecorator dropping = new TaskDecoratorCallbackDecorator(task -> () -> { });
        Throwable thrown = catchThrowable(() -> dropping.decorate(() -> "x").call());
        assertThat(thrown).isInstanceOf(IllegalStateException.class).hasMessageContaining("did not run the callback");
    }

    /** Submits while another thread holds the context, so the submission queues (and is decorated). */
    private <T> CompletableFuture<T> whileBusy(java.util.function.Supplier<CompletableFuture<T>> submit)
            throws InterruptedException {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Thread holder = new Thread(() -> context.send(() -> {
            inside.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        holder.start();
        inside.await();
        CompletableFuture<T> future = submit.get();
        assertThat(future).as("queued behind the holder").isNotDone();
        release.countDown();
        holder.join();
        return future;
    }
}
