package dev.synccontext.spring.live;


import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.live.LiveChannel;
import dev.synccontext.live.OverflowPolicy;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.spring.websocket.LocalStomp;
import dev.synccontext.spring.websocket.StompBroker;
import dev.synccontext.spring.websocket.StompClients;
import dev.synccontext.testing.OnRandomPort;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.messaging.simp.SimpMessageHeaderAccessor;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.stereotype.Controller;
import org.springframework.web.socket.messaging.WebSocketStompClient;

/**
 * The STOMP transport end to end ({@link WebSocketStompClient} over a real socket): a session subscribes to its
 * own user destination, the context publishes, and the client gets the snapshot then every message once, in
 * order, each with its {@code live-id}; the publishing callbacks never wait for the client.
 */
@OnRandomPort(classes = LiveStompTest.App.class, properties = {
        "synccontext.live.buffer-capacity=1000", "server.shutdown=immediate"})
@ExtendWith(LocalStomp.Resolver.class)
class LiveStompTest {

    @Autowired
    App app;

    @Test
    void aStompSessionGetsTheSnapshotThenEveryMessageInOrderOnItsOwnDestination(LocalStomp stomp) throws Exception {
        StompSession session = stomp.connect("/stomp");
        List<String> ids = new CopyOnWriteArrayList<>();
        List<String> bodies = new CopyOnWriteArrayList<>();
        try {
            StompClients.subscribe(session, "/user/topic/board", (headers, body) -> {
                ids.add(headers.getFirst("live-id"));
                bodies.add(body);
            });
            session.send("/app/live-subscribe", "");
            await().atMost(Duration.ofSeconds(10)).until(() -> ids.size() == 1);
            for (int i = 1; i <= 500; i++) {
                String body = "change " + i;
                app.context.invokeAsync(() -> app.live.publish("board", body)).get(5, TimeUnit.SECONDS);
            }
            await().atMost(Duration.ofSeconds(20)).until(() -> ids.size() == 501);
            assertThat(ids.stream().map(id -> Long.parseLong(id.substring(id.lastIndexOf('-') + 1))).toList())
                    .containsExactlyElementsOf(LongStream.rangeClosed(0, 500).boxed().toList());
            assertThat(bodies.get(0)).isEqualTo("snapshot");
            assertThat(bodies.get(500)).isEqualTo("change 500");
            assertThat(RendererSyncContext.blockedCallbacks()).isEmpty();
        } finally {
            session.disconnect();
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({App.OrderedBroker.class, App.Subscriptions.class})
    static class App {

        final RendererSyncContext context;
        final LiveChannel live;

        App(SyncContextRegistry registry, LiveChannels channels) {
            this.context = registry.forKey("stomp-board");
            this.live = channels.builder("stomp-board", "websocket").policy(OverflowPolicy.DISCONNECT).build(() -> "snapshot");
        }

        /**
         * The tests' usual broker, but with {@code setPreservePublishOrder(true)}: Spring's outbound channel is a
         * thread pool and reorders one session's messages otherwise (this test fails without it). A test that
         * wants Spring's default (no order kept) sets {@code test.stomp.preserve-publish-order=false}.
         */
        static class OrderedBroker extends StompBroker {

            private final boolean preservePublishOrder;

            OrderedBroker(org.springframework.core.env.Environment environment) {
                this.preservePublishOrder = environment.getProperty("test.stomp.preserve-publish-order", Boolean.class, true);
            }

            @Override
            public void configureMessageBroker(org.springframework.messaging.simp.config.MessageBrokerRegistry registry) {
                super.configureMessageBroker(registry);
                registry.setPreservePublishOrder(preservePublishOrder);
            }
        }

        @Controller
        record Subscriptions(App app, LiveStomp stomp) {

            @MessageMapping("/live-subscribe")
            void subscribe(SimpMessageHeaderAccessor headers) {
                String sessionId = headers.getSessionId();
                app.context.invokeAsync(() -> app.live.subscribe(stomp.toSession(sessionId, "/topic/board", null)));
            }
        }
    }
}
