package dev.synccontext.spring.websocket;


import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.RendererSyncContext;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.stereotype.Controller;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.testing.OnRandomPort;

/**
 * The deprecated {@code synccontext.scope=websocket} over a real socket: the plain injected context is the
 * STOMP session's, the very context a {@code RendererSyncContext} parameter gets (one context per session,
 * whichever way it is reached), and a disconnect releases it.
 */
@OnRandomPort(classes = StompDeprecatedWebSocketScopeTest.App.class, properties = "synccontext.scope=websocket")
@ExtendWith(LocalStomp.Resolver.class)
class StompDeprecatedWebSocketScopeTest {

    @Autowired
    Checks checks;

    @Autowired
    MeterRegistry meters;

    @Test
    void thePlainInjectedContextIsTheStompSessionsOneContextAndIsReleasedOnDisconnect(LocalStomp stomp)
            throws Exception {
        StompSession session = stomp.connect("/stomp");
        session.send("/app/same", "x");
        RendererSyncContext context = checks.seen.get(30, SECONDS);
        assertThat(context.name()).startsWith("websocket-");
        assertThat(webSocketContexts()).isEqualTo(1);
        session.disconnect();
        await().atMost(Duration.ofSeconds(60)).until(() -> webSocketContexts() == 0);
        assertThat(context.isClosed()).isTrue();
    }

    private double webSocketContexts() {
        return meters.get("synccontext.contexts").tag("scope", WebSocketSessionContexts.SCOPE).gauge().value();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ StompBroker.class, Checks.class })
    static class App {
    }

    @Controller
    static class Checks {

        final CompletableFuture<RendererSyncContext> seen = new CompletableFuture<>();
        private final RendererSyncContext injected;
        private final SyncContextRegistry registry;

        Checks(RendererSyncContext injected, SyncContextRegistry registry) {
            this.injected = injected;
            this.registry = registry;
        }

        @MessageMapping("/same")
        void same(RendererSyncContext parameter) {
            try {
                assertThat(registry.resolve(injected)).as("the plain injected context, resolved in a STOMP handler")
                        .isSameAs(parameter);
                seen.complete(parameter);
            } catch (Throwable failed) {
                seen.completeExceptionally(failed);
            }
        }
    }
}
