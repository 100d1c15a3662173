package dev.synccontext.spring.websocket;


import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.RendererSyncContext;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.messaging.converter.StringMessageConverter;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.stereotype.Controller;
import org.springframework.web.socket.client.standard.StandardWebSocketClient;
import org.springframework.web.socket.messaging.WebSocketStompClient;
import dev.synccontext.registry.SyncContextRegistry;

/**
 * The deprecated {@code synccontext.scope=websocket} over a real socket: the plain injected context is the
 * STOMP session's, the very context a {@code RendererSyncContext} parameter gets (one context per session,
 * whichever way it is reached), and a disconnect releases it.
 */
@SpringBootTest(classes = StompDeprecatedWebSocketScopeTest.App.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = "synccontext.scope=websocket")
class StompDeprecatedWebSocketScopeTest {

    @LocalServerPort
    int port;

    @Autowired
    Checks checks;

    @Autowired
    MeterRegistry meters;

    @Test
    void thePlainInjectedContextIsTheStompSessionsOneContextAndIsReleasedOnDisconnect() throws Exception {
        WebSocketStompClient client = new WebSocketStompClient(new StandardWebSocketClient());
        client.setMessageConverter(new StringMessageConverter());
        try {
            StompSession session = StompClients.connect(client, port, "/stomp");
            session.send("/app/same", "x");
            RendererSyncContext context = checks.seen.get(30, SECONDS);
            assertThat(context.name()).startsWith("websocket-");
            assertThat(webSocketContexts()).isEqualTo(1);
            session.disconnect();
            await().atMost(Duration.ofSeconds(60)).until(() -> webSocketContexts() == 0);
            assertThat(context.isClosed()).isTrue();
        } finally {
            client.stop();
        }
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
