package dev.synccontext.spring.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.live.LiveChannel;
import dev.synccontext.live.OverflowPolicy;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.spring.websocket.StompClients;
import dev.synccontext.testing.OnRandomPort;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.messaging.converter.StringMessageConverter;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.messaging.simp.SimpMessageHeaderAccessor;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.stereotype.Controller;
import org.springframework.web.socket.client.standard.StandardWebSocketClient;
import org.springframework.web.socket.messaging.WebSocketStompClient;

/**
 * Several {@link LiveStomp} subscriptions on one STOMP connection are independent channels already: a private
 * channel and a room's channel, each subscribed with its own {@code toSession} destination and resume id, keep their
 * own subscriber (buffer, policy) and sequence; a new connection resumes each from its own id (the private one
 * replays what it missed, the room's, past its replay, gets a snapshot).
 */
@OnRandomPort(classes = LanesStompTest.App.class, properties = {
        "synccontext.live.buffer-capacity=64", "synccontext.live.replay-capacity=16", "server.shutdown=immediate"})
class LanesStompTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @LocalServerPort
    int port;

    @Autowired
    App app;

    /** What one destination of a connection received: its frames' {@code live-id}, {@code live-snapshot}, body. */
    record Frame(String id, boolean snapshot, String body) {
        long sequence() {
            return Long.parseLong(id.substring(id.lastIndexOf('-') + 1));
        }
    }

    @Test
    void aPrivateAndARoomSubscriptionOnOneConnectionResumeEachFromItsOwnId() throws Exception {
        List<Frame> mine = new CopyOnWriteArrayList<>();
        List<Frame> rooms = new CopyOnWriteArrayList<>();
        StompSession first = connect(mine, rooms, null, null);
        try {
            await().atMost(WAIT).until(() -> mine.size() == 1 && rooms.size() == 1);
            assertThat(app.me.subscribers()).as("the private channel's own subscriber").hasSize(1);
            assertThat(app.room.subscribers()).as("the room channel's own subscriber").hasSize(1);
            assertThat(app.me.subscribers().get(0)).isNotSameAs(app.room.subscribers().get(0));
            for (int i = 0; i < 3; i++) {
                publish(app.meContext, app.me, "m" + i);
                publish(app.roomContext, app.room, "r" + i);
            }
            await().atMost(WAIT).until(() -> mine.size() == 4 && rooms.size() == 4);
            assertThat(mine).extracting(Frame::body).containsExactly("me", "m0", "m1", "m2");
            assertThat(rooms).extracting(Frame::body).containsExactly("room", "r0", "r1", "r2");
        } finally {
            first.disconnect();
        }
        await().atMost(WAIT).until(() -> app.me.subscribers().isEmpty() && app.room.subscribers().isEmpty());
        String meLast = mine.get(3).id();
        String roomLast = rooms.get(3).id();
        publish(app.meContext, app.me, "away"); // while away: one private message, more room ones than it replays
        for (int i = 0; i < 20; i++) {
            publish(app.roomContext, app.room, "l" + i);
        }
        List<Frame> mineBack = new CopyOnWriteArrayList<>();
        List<Frame> roomsBack = new CopyOnWriteArrayList<>();
        StompSession back = connect(mineBack, roomsBack, meLast, roomLast);
        try {
            await().atMost(WAIT).until(() -> !mineBack.isEmpty() && !roomsBack.isEmpty());
            assertThat(mineBack.get(0)).as("the private subscription replays what it missed")
                    .isEqualTo(new Frame(app.me.epoch() + "-4", false, "away"));
            assertThat(roomsBack.get(0).snapshot()).as("the room's, past its replay, gets its snapshot").isTrue();
            assertThat(roomsBack.get(0).sequence()).isEqualTo(23);
        } finally {
            back.disconnect();
        }
    }

    private StompSession connect(List<Frame> mine, List<Frame> rooms, @Nullable String meLast,
            @Nullable String roomLast) throws Exception {
        WebSocketStompClient client = new WebSocketStompClient(new StandardWebSocketClient());
        client.setMessageConverter(new StringMessageConverter());
        StompSession session = StompClients.connect(client, port, "/stomp");
        StompClients.subscribe(session, "/user/topic/me", collect(mine));
        StompClients.subscribe(session, "/user/topic/room", collect(rooms));
        StompHeaders headers = new StompHeaders();
        headers.setDestination("/app/lanes-subscribe");
        if (meLast != null) {
            headers.add("me-last-id", meLast);
            headers.add("room-last-id", roomLast);
        }
        session.send(headers, "");
        return session;
    }

    private static BiConsumer<StompHeaders, String> collect(List<Frame> into) {
        return (headers, body) -> into.add(new Frame(headers.getFirst("live-id"),
                Boolean.parseBoolean(headers.getFirst("live-snapshot")), body));
    }

    private static void publish(RendererSyncContext context, LiveChannel channel, String body) throws Exception {
        context.invokeAsync(() -> channel.publish("message", body)).get(10, TimeUnit.SECONDS);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({LiveStompTest.App.OrderedBroker.class, App.Subscriptions.class})
    static class App {

        final RendererSyncContext meContext;
        final LiveChannel me;
        final RendererSyncContext roomContext;
        final LiveChannel room;

        App(SyncContextRegistry registry, LiveChannels channels) {
            this.meContext = registry.forKey("stomp-me");
            this.me = channels.builder("me", "websocket").build(() -> "me");
            this.roomContext = registry.forKey("stomp-room");
            this.room = channels.builder("room", "websocket").policy(OverflowPolicy.DISCONNECT).build(() -> "room");
        }

        @Controller
        record Subscriptions(App app, LiveStomp stomp) {

            /** Both subscriptions of the connection, each on its channel's context with its own resume id. */
            @MessageMapping("/lanes-subscribe")
            void subscribe(SimpMessageHeaderAccessor headers) {
                String sessionId = headers.getSessionId();
                app.meContext.invokeAsync(() -> app.me.subscribe(
                        stomp.toSession(sessionId, "/topic/me", headers.getFirstNativeHeader("me-last-id"))));
                app.roomContext.invokeAsync(() -> app.room.subscribe(
                        stomp.toSession(sessionId, "/topic/room", headers.getFirstNativeHeader("room-last-id"))));
            }
        }
    }
}
