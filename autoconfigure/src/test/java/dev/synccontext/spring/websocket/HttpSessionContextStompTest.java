package dev.synccontext.spring.websocket;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.spring.scope.ContextBeanScope;
import dev.synccontext.spring.scope.ContextKind;
import dev.synccontext.spring.scope.ContextScoped;
import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.messaging.handler.annotation.MessageExceptionHandler;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.messaging.handler.annotation.Payload;
import org.springframework.messaging.simp.SimpMessageHeaderAccessor;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.stereotype.Component;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.ResponseBody;
import org.springframework.web.socket.WebSocketHttpHeaders;

/**
 * Over real STOMP: a {@code @MessageMapping} method reaches the context of the HTTP session its socket was
 * opened from, and that context's {@code @ContextScoped} beans, with no handshake interceptor of the
 * application's; a socket opened without the session cookie reaches none.
 */
@OnRandomPort(classes = HttpSessionContextStompTest.App.class)
@ExtendWith(LocalStomp.Resolver.class)
class HttpSessionContextStompTest {

    @Autowired
    Replies replies;

    private LocalStomp stomp;

    @BeforeEach
    void client(LocalStomp stomp) {
        this.stomp = stomp;
    }

    @Test
    void aStompHandlerReadsItsUsersHttpSessionBeansAndNeverAnotherUsers(Browser alice, Browser bob) throws Exception {
        String aliceCookie = sessionCookie(alice.post("/add"));
        alice.post("/add");
        String bobCookie = sessionCookie(bob.post("/add"));

        assertThat(askOverStomp(aliceCookie, "alice")).isEqualTo("2");
        assertThat(askOverStomp(bobCookie, "bob")).isEqualTo("1");
        assertThat(replies.lookedUp.computeIfAbsent("alice-lookup", l -> new CompletableFuture<>()).get(30, SECONDS))
                .as("HttpSessionHandshakes.contextOf(attributes) finds the same context").isEqualTo("2");
    }

    @Test
    void aSocketOpenedWithoutTheSessionCookieReachesNoHttpSessionContext() throws Exception {
        assertThat(askOverStomp(null, "anonymous")).startsWith("failed: This STOMP session has no HTTP session context");
    }

    @Test
    void theSessionsCartIsNeitherCreatedNorFoundOnTheStompSessionsOwnContext(Browser carol) throws Exception {
        String cookie = sessionCookie(carol.post("/add"));
        WebSocketHttpHeaders headers = new WebSocketHttpHeaders();
        headers.add("Cookie", cookie);
        StompSession session = stomp.connect("/stomp", headers);
        try {
            session.send("/app/wrong-kind", "carol");
            assertThat(replies.answers.computeIfAbsent("carol-wrong", l -> new CompletableFuture<>()).get(30, SECONDS))
                    .isEqualTo("found: false, then WrongContextKindException, found: false");
        } finally {
            session.disconnect();
        }
    }

    private String askOverStomp(String cookie, String label) throws Exception {
        WebSocketHttpHeaders headers = new WebSocketHttpHeaders();
        if (cookie != null) {
            headers.add("Cookie", cookie);
        }
        StompSession session = stomp.connect("/stomp", headers);
        try {
            session.send("/app/cart", label);
            session.send("/app/lookup", label + "-lookup");
            return replies.answers.computeIfAbsent(label, l -> new CompletableFuture<>()).get(30, SECONDS);
        } finally {
            session.disconnect();
        }
    }

    private static String sessionCookie(java.net.http.HttpResponse<String> response) {
        return response.headers().firstValue("set-cookie").orElseThrow().split(";")[0];
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ StompBroker.class, Cart.class, Carts.class, Replies.class })
    static class App {
    }

    @Component
    @ContextScoped(kind = ContextKind.SESSION)
    static class Cart {
        private int items;

        public int add() {
            return ++items;
        }

        public int items() {
            return items;
        }
    }

    /** What the controller answered, by label, for the test's thread to wait on. */
    static final class Replies {
        final Map<String, CompletableFuture<String>> answers = new ConcurrentHashMap<>();
        final Map<String, CompletableFuture<String>> lookedUp = new ConcurrentHashMap<>();
    }

    @Controller
    record Carts(Cart cart, HttpSessionHandshakes httpSessions, ContextBeanScope scope, Replies replies) {

        /** On the STOMP session's own context (kind WEBSOCKET), the SESSION cart is not made, and find makes none. */
        @MessageMapping("/wrong-kind")
        public void wrongKind(@Payload String label, RendererSyncContext stomp) {
            String before = "found: " + scope.find(stomp, Cart.class).isPresent();
            String call;
            try {
                stomp.invokeAsync(cart::items).join();
                call = "created";
            } catch (java.util.concurrent.CompletionException failed) {
                call = failed.getCause().getClass().getSimpleName();
            }
            replies.answers.computeIfAbsent(label + "-wrong", l -> new CompletableFuture<>())
                    .complete(before + ", then " + call + ", found: " + scope.find(stomp, Cart.class).isPresent());
        }

        @OnContext
        @PostMapping("/add")
        @ResponseBody
        public String add() {
            return String.valueOf(cart.add());
        }

        @MessageMapping("/cart")
        public void cart(@Payload String label, @HttpSessionContext RendererSyncContext user) {
            String items = String.valueOf(user.invokeAsync(cart::items).join());
            replies.answers.computeIfAbsent(label, l -> new CompletableFuture<>()).complete(items);
        }

        @MessageMapping("/lookup")
        public void lookup(@Payload String label, SimpMessageHeaderAccessor headers) {
            httpSessions.contextOf(headers.getSessionAttributes()).ifPresent(user -> replies.lookedUp
                    .computeIfAbsent(label, l -> new CompletableFuture<>())
                    .complete(String.valueOf(user.invokeAsync(cart::items).join())));
        }

        @MessageExceptionHandler
        public void failed(IllegalStateException failure) {
            // only the test without a cookie makes a frame fail
            replies.answers.computeIfAbsent("anonymous", l -> new CompletableFuture<>())
                    .complete("failed: " + failure.getMessage());
        }
    }
}
