package dev.synccontext.spring;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.ScopeNotActiveException;
import dev.synccontext.registry.ContextTemplate;
import dev.synccontext.registry.SyncContextRegistry;

class ScopedSyncContextTest {

    private final SyncContextRegistry registry = new SyncContextRegistry(
            ContextTemplate.defaults(ForkJoinPool.commonPool(), "common-pool"));

    @Test
    void outsideCallbacksItAsksTheScope() {
        RendererSyncContext sessionContext = registry.create("session");
        ScopedSyncContext proxy = new ScopedSyncContext(registry, "session", () -> sessionContext);
        assertThat(proxy.name()).isEqualTo(sessionContext.name());
        assertThat(proxy.target()).isSameAs(sessionContext);
    }

    @Test
    void theRegistryResolvesTheProxyToTheContextBehindItAndLeavesOtherContextsAlone() {
        RendererSyncContext sessionContext = registry.create("session");
        ScopedSyncContext proxy = new ScopedSyncContext(registry, "session", () -> sessionContext);
        RendererSyncContext plain = RendererSyncContext.create();

        assertThat(registry.resolve(proxy)).isSameAs(sessionContext);
        assertThat(registry.resolve(plain)).isSameAs(plain);
    }

    @Test
    void insideAQueuedCallbackOnAPoolThreadItIsThatCallbacksContextWithoutAskingTheScope() throws Exception {
        RendererSyncContext sessionContext = registry.create("session");
        ScopedSyncContext proxy = new ScopedSyncContext(registry, "session", () -> {
            throw new ScopeNotActiveException("scopedTarget.rendererSyncContext", "session",
                    new IllegalStateException("no request bound to this thread"));
        });
        CompletableFuture<String> seen = new CompletableFuture<>();
        sessionContext.post(() -> {
            proxy.assertAccess();                        // would throw ScopeNotActiveException otherwise
            proxy.post(() -> seen.complete(proxy.name())); // and so would re-posting through the proxy
        });
        assertThat(seen.get(10, TimeUnit.SECONDS)).isEqualTo(sessionContext.name());
    }

    @Test
    void insideAForeignContextsCallbackItStillAsksTheScope() {
        RendererSyncContext sessionContext = registry.create("session");
        RendererSyncContext foreign = RendererSyncContext.create();
        ScopedSyncContext proxy = new ScopedSyncContext(registry, "session", () -> sessionContext);
        assertThat(foreign.invokeAsync(proxy::target).join()).isSameAs(sessionContext);
        RendererSyncContext keyed = registry.forKey("other");
        assertThat(keyed.invokeAsync(proxy::target).join()).as("another scope's context").isSameAs(sessionContext);
    }

    @Test
    void aReleasedContextFinishingItsWorkStillResolvesToItself() throws Exception {
        RendererSyncContext sessionContext = registry.create("session");
        ScopedSyncContext proxy = new ScopedSyncContext(registry, "session", () -> {
            throw new IllegalStateException("session is over");
        });
        CompletableFuture<Void> gate = new CompletableFuture<>();
        CompletableFuture<Boolean> access = new CompletableFuture<>();
        sessionContext.post(() -> {
            gate.join();
            access.complete(proxy.checkAccess());
        });
        registry.release(sessionContext);
        gate.complete(null);
        assertThat(access.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(sessionContext.awaitTermination(Duration.ofSeconds(10))).isTrue();
        assertThatThrownBy(proxy::name).hasMessageContaining("session is over");
    }
}
