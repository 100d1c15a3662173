package dev.synccontext.autoconfigure.durable;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.ContextClock;
import dev.synccontext.RendererSyncContext;
import dev.synccontext.autoconfigure.durable.WriteThroughHttpTest.SwitchableStore;
import dev.synccontext.spring.durable.InMemoryStateStore;
import dev.synccontext.spring.handler.OnContext;
import dev.synccontext.spring.websocket.HttpSessionContext;
import dev.synccontext.spring.websocket.StompBroker;
import dev.synccontext.testing.Browser;
import java.lang.reflect.Type;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.messaging.converter.StringMessageConverter;
import org.springframework.messaging.handler.annotation.MessageExceptionHandler;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.messaging.handler.annotation.SendTo;
import org.springframework.messaging.simp.stomp.StompFrameHandler;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.messaging.simp.stomp.StompSessionHandlerAdapter;
import org.springframework.stereotype.Controller;
import org.springframework.web.socket.WebSocketHttpHeaders;
import org.springframework.web.socket.client.standard.StandardWebSocketClient;
import org.springframework.web.socket.messaging.WebSocketStompClient;

/**
 * {@code synccontext.durable.write-through=true} for STOMP {@code @OnContext} handlers, over a real STOMP client
 * on real Tomcat (one node, the in-memory store behind {@link SwitchableStore}, which records what it accepted).
 * A frame's handler changes its user's durable counter through the HTTP session's context
 * ({@code @HttpSessionContext}); its {@code @SendTo} reply (returned, or completing a returned future) reaches the
 * client only after the store accepted that change, and a refused write reaches the client as a STOMP {@code ERROR} frame, never as a reply. The premise
 * (write-through off) shows a reply with nothing stored; a durable bean called on the STOMP session's own context
 * fails, naming the fix. The debounce is an hour, so only write-through can have written anything.
 */
class WriteThroughStompTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final SwitchableStore store = new SwitchableStore(new InMemoryStateStore(ContextClock.system()));
    private final WebSocketStompClient client = new WebSocketStompClient(new StandardWebSocketClient());
    private ConfigurableApplicationContext node;

    WriteThroughStompTest() {
        client.setMessageConverter(new StringMessageConverter());
    }

    @AfterEach
    void stop() {
        client.stop();
        if (node != null) {
            node.close();
        }
    }

    @Test
    void eachStompReplyIsSentOnlyAfterItsSnapshotWasAccepted() throws Exception {
        Socket socket = startAndConnect(true);
        assertEachReplyFollowsItsSnapshot(socket, "/app/increment", 6);
        assertThat(store.acceptedCount()).as("one write per changing answer, HTTP and STOMP").isEqualTo(6);
    }

    @Test
    void aReplyFromAReturnedFutureIsSentOnlyAfterItsSnapshotWasAccepted() throws Exception {
        Socket socket = startAndConnect(true);
        assertEachReplyFollowsItsSnapshot(socket, "/app/increment-later", 4);
    }

    @Test
    void withoutWriteThroughTheStompReplyComesBeforeTheDebouncedWrite() throws Exception {
        Socket socket = startAndConnect(false);
        for (int i = 2; i <= 4; i++) {
            socket.session.send("/app/increment", "x");
            Reply reply = socket.next();
            assertThat(reply.body).isEqualTo(String.valueOf(i));
            assertThat(reply.acceptedWhenReceived).as("the premise: reply %d shown, nothing stored (debounce 1 h)", i)
                    .isZero();
        }
    }

    @Test
    void aRefusedWriteReachesTheClientAsAnErrorFrameNeverAsAReply() throws Exception {
        start(true);
        User user = new User();
        user.firstIncrement();
        Socket socket = user.connect();
        socket.session.send("/app/increment", "x");
        assertThat(socket.next().body).isEqualTo("2");

        store.refuse = true;
        socket.session.send("/app/increment", "x");
        String error = socket.errors.poll(WAIT.toSeconds(), SECONDS);
        assertThat(error).as("an ERROR frame").isNotNull()
                .contains("was not sent").contains("Replies#increment").contains("is not available on node");
        assertThat(socket.replies.poll(200, TimeUnit.MILLISECONDS)).as("no reply for the refused write").isNull();

        store.refuse = false;
        Socket again = user.connect();
        again.session.send("/app/increment", "x");
        assertThat(again.next().body).as("the unsaved 3 was never shown, nor kept: the retry continues from 2")
                .isEqualTo("3");
        assertThat(store.lastAccepted()).contains("\"count\":3");
    }

    @Test
    void aDurableBeanCalledOnTheStompSessionsOwnContextFailsNamingTheFix() throws Exception {
        Socket socket = startAndConnect(true);
        socket.session.send("/app/misuse", "x");
        String failure = socket.next().body;
        assertThat(failure).startsWith("failed: DurableOutsideSessionException")
                .contains("@Durable bean").contains("STOMP or WebSocket session's").contains("@HttpSessionContext");
    }

    /** Starts the node, opens a user's HTTP session with its first increment (answered 1), and connects its socket. */
    private Socket startAndConnect(boolean writeThrough) throws Exception {
        start(writeThrough);
        User user = new User();
        assertThat(user.firstIncrement()).isEqualTo("1");
        return user.connect();
    }

    /**
     * Sends {@code destination} an increment for each count from 2 to {@code last}, asserting that each reply came
     * after the store accepted the snapshot with its count.
     */
    private static void assertEachReplyFollowsItsSnapshot(Socket socket, String destination, int last)
            throws InterruptedException {
        for (int i = 2; i <= last; i++) {
            socket.session.send(destination, "x");
            Reply reply = socket.next();
            assertThat(reply.body).isEqualTo(String.valueOf(i));
            assertThat(reply.storedWhenReceived).as("the snapshot accepted before reply %d arrived", i)
                    .contains("\"count\":" + i);
        }
    }

    private void start(boolean writeThrough) {
        node = new SpringApplicationBuilder(App.class)
                .initializers(context -> context.getBeanFactory().registerSingleton("switchableStore", store))
                .properties("server.port=0", "spring.main.banner-mode=off", "synccontext.durable.debounce=1h",
                        "synccontext.durable.write-through=" + writeThrough)
                .run();
    }

    private int port() {
        return ((WebServerApplicationContext) node).getWebServer().getPort();
    }

    /** One user: an HTTP session (the browser's cookie) and the STOMP sockets opened with it. */
    private final class User {
        final Browser browser = new Browser(port());
        private String cookie;

        /** The first HTTP request: it opens the session (and its context) and increments the counter. */
        String firstIncrement() {
            HttpResponse<String> reply = browser.post("/counter");
            cookie = reply.headers().firstValue("set-cookie").orElseThrow().split(";")[0];
            return reply.body();
        }

        Socket connect() throws Exception {
            WebSocketHttpHeaders headers = new WebSocketHttpHeaders();
            headers.add("Cookie", cookie);
            BlockingQueue<String> errors = new LinkedBlockingQueue<>();
            StompSession session = client.connectAsync("ws://127.0.0.1:" + port() + "/stomp", headers,
                    new StompSessionHandlerAdapter() {
                        @Override
                        public void handleFrame(StompHeaders headers, Object payload) {
                            errors.add(headers.getFirst("message") + " / " + payload); // ERROR frames come here
                        }
                    }).get(WAIT.toSeconds(), SECONDS);
            Socket socket = new Socket(session, errors);
            session.subscribe("/topic/count", socket);
            // A subscription takes effect when the broker has handled it, on Spring's pool: probe until it has.
            await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
                session.send("/app/probe", "probe");
                return socket.replies.poll(50, TimeUnit.MILLISECONDS) != null;
            });
            socket.replies.clear();
            return socket;
        }
    }

    /** What the client received, and what the store held at that moment. */
    private record Reply(String body, String storedWhenReceived, int acceptedWhenReceived) {
    }

    private final class Socket implements StompFrameHandler {
        final StompSession session;
        final BlockingQueue<String> errors;
        final BlockingQueue<Reply> replies = new LinkedBlockingQueue<>();

        Socket(StompSession session, BlockingQueue<String> errors) {
            this.session = session;
            this.errors = errors;
        }

        @Override
        public Type getPayloadType(StompHeaders headers) {
            return String.class;
        }

        @Override
        public void handleFrame(StompHeaders headers, Object payload) {
            replies.add(new Reply((String) payload, store.lastAccepted(), store.acceptedCount()));
        }

        /** The next reply that is not a late probe's. */
        Reply next() throws InterruptedException {
            while (true) {
                Reply reply = replies.poll(WAIT.toSeconds(), SECONDS);
                assertThat(reply).as("a reply").isNotNull();
                if (!reply.body.equals("probe")) {
                    return reply;
                }
            }
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ StompBroker.class, DurableApp.Counter.class, DurableApp.Note.class, DurableApp.PlainCounter.class,
            DurableApp.CounterController.class, Replies.class })
    static class App {
    }

    @Controller
    static class Replies {
        private final DurableApp.Counter counter;

        Replies(DurableApp.Counter counter) {
            this.counter = counter;
        }

        @MessageMapping("/probe")
        @SendTo("/topic/count")
        String probe(String payload) {
            return payload;
        }

        /** Changes the user's durable counter on the HTTP session's context; the reply waits for its snapshot. */
        @OnContext
        @MessageMapping("/increment")
        @SendTo("/topic/count")
        String increment(@HttpSessionContext RendererSyncContext user) {
            return String.valueOf(user.invokeAsync(counter::increment).join());
        }

        /** The same, answered with the future: its reply is sent from the HTTP session context's callback. */
        @OnContext
        @MessageMapping("/increment-later")
        @SendTo("/topic/count")
        CompletableFuture<String> incrementLater(@HttpSessionContext RendererSyncContext user) {
            return user.invokeAsync(() -> String.valueOf(counter.increment()));
        }

        /** The misuse: the durable counter called on the STOMP session's own context. */
        @OnContext
        @MessageMapping("/misuse")
        @SendTo("/topic/count")
        String misuse() {
            return String.valueOf(counter.increment());
        }

        @MessageExceptionHandler
        @SendTo("/topic/count")
        String failed(Exception failure) {
            Throwable cause = failure;
            while (cause.getCause() != null) {
                cause = cause.getCause();
            }
            return "failed: " + cause.getClass().getSimpleName() + ": " + cause.getMessage();
        }
    }
}
