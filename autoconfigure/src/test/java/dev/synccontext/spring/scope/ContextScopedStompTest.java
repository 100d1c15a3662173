package dev.synccontext.spring.scope;






import dev.synccontext.spring.websocket.LocalStomp;
import dev.synccontext.spring.websocket.StompBroker;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.RendererSyncContext;
import jakarta.annotation.PreDestroy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import dev.synccontext.spring.websocket.StompBroker;
import dev.synccontext.testing.OnRandomPort;
import org.springframework.context.annotation.Import;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.stereotype.Component;
import org.springframework.stereotype.Controller;

/** {@code @ContextScoped} state of STOMP sessions over a real socket: one instance each, destroyed on disconnect. */
@OnRandomPort(classes = ContextScopedStompTest.App.class)
@ExtendWith(LocalStomp.Resolver.class)
class ContextScopedStompTest {

    static final int FRAMES = 50;

    @Autowired
    Chats chats;

    private LocalStomp stomp;

    @BeforeEach
    void client(LocalStomp stomp) {
        this.stomp = stomp;
        Chat.DESTROYED.clear();
    }

    @Test
    void eachStompSessionHasItsOwnInstanceDestroyedOnItsContextWhenItDisconnects() throws Exception {
        StompSession first = connect();
        StompSession second = connect();
        for (int i = 0; i < FRAMES; i++) {
            first.send("/app/say", "a" + i);
            second.send("/app/say", "b" + i);
        }
        first.send("/app/whoami", "first");
        second.send("/app/whoami", "second");
        await().atMost(Duration.ofSeconds(30)).until(() -> chats.seen.size() == 2);
        assertThat(chats.seen.get("first")).as("the inbound thread and a callback see the same instance")
                .isEqualTo(chats.seenInside.get("first"));
        assertThat(chats.seen.get("first")).isNotEqualTo(chats.seen.get("second"));

        first.disconnect();
        second.disconnect();

        await().atMost(Duration.ofSeconds(30)).until(() -> Chat.DESTROYED.size() == 2);
        assertThat(Chat.DESTROYED).allSatisfy(destroyed -> {
            assertThat(destroyed.lines()).as("every frame's callback ran before the instance was destroyed")
                    .isEqualTo(FRAMES);
            assertThat(destroyed.onItsContext()).isTrue();
            assertThat(destroyed.context()).startsWith("websocket-");
        });
        assertThat(Chat.DESTROYED).extracting(Chat.Destroyed::id)
                .containsExactlyInAnyOrder(chats.seen.get("first"), chats.seen.get("second"));
    }

    private StompSession connect() throws Exception {
        return stomp.connect("/stomp");
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ StompBroker.class, Chat.class, Chats.class })
    static class App {
    }

    /** One per STOMP session's context; no lock. */
    @Component
    @ContextScoped
    static class Chat {
        record Destroyed(String id, int lines, String context, boolean onItsContext) {
        }

        static final List<Destroyed> DESTROYED = new CopyOnWriteArrayList<>();
        private static final AtomicInteger INSTANCES = new AtomicInteger();

        private final String id = "chat-" + INSTANCES.incrementAndGet();
        private int lines;

        String id() {
            return id;
        }

        void add(String line) {
            lines++;
        }

        @PreDestroy
        void destroyed() {
            RendererSyncContext running = RendererSyncContext.current().orElse(null);
            DESTROYED.add(new Destroyed(id, lines, running == null ? "none" : running.name(),
                    running != null && running.checkAccess()));
        }
    }

    @Controller
    static class Chats {
        final Map<String, String> seen = new ConcurrentHashMap<>();
        final Map<String, String> seenInside = new ConcurrentHashMap<>();
        private final Chat chat;

        Chats(Chat chat) {
            this.chat = chat;
        }

        @MessageMapping("/say")
        void say(String line, RendererSyncContext context) {
            context.invokeAsync(() -> chat.add(line));
        }

        @MessageMapping("/whoami")
        void whoami(String name, RendererSyncContext context) {
            String here = chat.id(); // on the inbound thread: the STOMP session's instance
            context.invokeAsync(() -> seenInside.put(name, chat.id())).join();
            seen.put(name, here);
        }
    }
}
