package dev.synccontext.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import io.micrometer.context.ContextRegistry;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;

class ContextPropagationDecoratorTest {

    private static final ThreadLocal<String> TENANT = new ThreadLocal<>();

    private final ExecutorService drainThread = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        MDC.clear();
        TENANT.remove();
        drainThread.shutdownNow();
    }

    private RendererSyncContext context() {
        ContextRegistry global = new ContextRegistry().loadThreadLocalAccessors();
        global.registerThreadLocalAccessor("tenant", TENANT);
        return RendererSyncContext.builder().executor(drainThread)
                .queuedCallbackDecorator(new ContextPropagationDecorator(global)).build();
    }

    @Test
    void queuedCallbackRunsWithTheSubmittersMdcAndThreadLocalsAndClearsThemAfterwards() throws Exception {
        RendererSyncContext ctx = context();
        MDC.put("user", "alice");
        TENANT.set("acme");
        CompletableFuture<String> seen = new CompletableFuture<>();
        ctx.post(() -> seen.complete(MDC.get("user") + "/" + TENANT.get()));
        assertThat(seen.get(10, TimeUnit.SECONDS)).isEqualTo("alice/acme");

        CompletableFuture<String> after = new CompletableFuture<>();
        drainThread.execute(() -> after.complete(MDC.get("user") + "/" + TENANT.get()));
        assertThat(after.get(10, TimeUnit.SECONDS)).as("the drain thread keeps nothing afterwards").isEqualTo("null/null");
    }

    @Test
    void aCallbackDoesNotSeeWhatThePreviousTaskOfItsPoolThreadLeftBehind() throws Exception {
        RendererSyncContext ctx = context();
        CountDownLatch leaked = new CountDownLatch(1);
        drainThread.execute(() -> {
            MDC.put("user", "stale"); // a sloppy task that does not clean up
            leaked.countDown();
        });
        assertThat(leaked.await(10, TimeUnit.SECONDS)).isTrue();
        MDC.put("user", "bob");
        MDC.remove("user"); // submitter has no user
        CompletableFuture<String> seen = new CompletableFuture<>();
        ctx.post(() -> seen.complete(String.valueOf(MDC.get("user"))));
        assertThat(seen.get(10, TimeUnit.SECONDS)).isEqualTo("null");
    }

    @Test
    void queuedInvokeAsyncCallablesAreDecoratedToo() throws Exception {
        RendererSyncContext ctx = context();
        CountDownLatch gate = new CountDownLatch(1);
        CompletableFuture<Void> running = new CompletableFuture<>();
        ctx.post(() -> {
            running.complete(null);
            try {
                gate.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        running.join();
        TENANT.set("globex");
        CompletableFuture<String> queued = ctx.invokeAsync(TENANT::get);
        TENANT.remove();
        gate.countDown();
        assertThat(queued.get(10, TimeUnit.SECONDS)).isEqualTo("globex");
    }
}
