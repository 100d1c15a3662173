package dev.synccontext.spring.websocket;


import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.testing.Browser;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;
import org.springframework.messaging.handler.annotation.DestinationVariable;
import org.springframework.messaging.handler.annotation.MessageMapping;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ResponseBody;
import org.springframework.web.socket.messaging.WebSocketStompClient;
import dev.synccontext.registry.SyncContextRegistry;
import dev.synccontext.testing.OnRandomPort;

/**
 * STOMP end to end: Spring's {@link WebSocketStompClient} over a real socket to a real server with the
 * default (HTTP session) scope, where every STOMP session gets a context of its own next to the HTTP one.
 *
 * <p>Why the context matters here: Spring's inbound channel hands the frames of one STOMP session to a
 * thread pool, so one session's {@code @MessageMapping} calls run at the same time
 * ({@link #framesOfOneStompSessionAreHandledConcurrentlyBySpring} proves it on this server). The counting
 * handler increments a plain {@code int} with a wide read-modify-write; only the context keeps it exact.
 */
@OnRandomPort(classes = StompSessionContextTest.App.class,
        properties = "management.endpoints.web.exposure.include=prometheus")
@ExtendWith(LocalStomp.Resolver.class)
class StompSessionContextTest extends TallyingWebSocketTest {

    @Autowired
    Counting counting;

    @Autowired
    @Qualifier("clientInboundChannelExecutor")
    ThreadPoolTaskExecutor inbound;

    private LocalStomp stomp;

    @BeforeEach
    void client(LocalStomp stomp) {
        this.stomp = stomp;
        awaitWebSocketContexts(0); // what an earlier test opened is released
    }

    @Test
    void framesOfOneStompSessionAreHandledConcurrentlyBySpring() throws Exception {
        StompSession session = openSession();
        try {
            session.send("/app/meet/" + run + "premise", "x");
            session.send("/app/meet/" + run + "premise", "x");
            await().atMost(WAIT).until(() -> counting.meetings.get(run + "premise").finished.get() == 2);
            assertThat(counting.meetings.get(run + "premise").met.get())
                    .as("two frames of one STOMP session were inside their handlers at the same time (else the"
                            + " barrier timed out): without a context, their state would race")
                    .isEqualTo(2);
        } finally {
            session.disconnect();
        }
    }

    @Test
    void fourThreadsSendingFiveHundredFramesEachOverOneStompSessionCountExactly() throws Exception {
        StompSession session = openSession();
        double queuedBefore = queuedWebSocketTasks();
        try {
            runConcurrently(SENDERS, sender -> {
                for (int i = 0; i < FRAMES; i++) {
                    synchronized (session) { // a WebSocket client socket takes one frame at a time
                        session.send("/app/count/" + run + "shared", "x");
                    }
                }
            });
            awaitHandled(run + "shared", SENDERS * FRAMES).assertExactOnOneContext(SENDERS * FRAMES);
            assertThat(webSocketContexts()).as("open websocket contexts while one session is connected").isEqualTo(1);
            System.out.printf("[stomp] one session, %d frames: %.0f increments queued behind a busy context%n",
                    SENDERS * FRAMES, queuedWebSocketTasks() - queuedBefore);
        } finally {
            session.disconnect();
        }
        awaitWebSocketContexts(0);
    }

    @Test
    void fourStompSessionsEachCountExactlyOnContextsOfTheirOwn() throws Exception {
        assertConnectionsCountExactlyOnContextsOfTheirOwn(1);
        assertThat(prometheusWebSocketContexts()).as("synccontext_contexts{scope=\"websocket\"} in the scrape")
                .isEqualTo("0.0");
    }

    @Test
    void aCleanDisconnectReleasesTheSessionsContext() throws Exception {
        StompSession session = openSession();
        for (int i = 0; i < FRAMES; i++) {
            session.send("/app/count/" + run + "clean", "x");
        }
        Tally tally = awaitHandled(run + "clean", FRAMES);
        RendererSyncContext context = tally.onlyContext();
        assertThat(tally.countOn(context)).isEqualTo(FRAMES);
        assertThat(webSocketContexts()).isEqualTo(1);

        session.disconnect();

        awaitWebSocketContexts(0);
        assertThat(context.isClosed()).as("the released context accepts nothing new").isTrue();
        assertThat(registry.contexts()).as("the registry no longer tracks it").doesNotContain(context);
    }

    @Test
    void aKilledSocketReleasesTheContextAndFramesStillInFlightDoNotOpenAnother() throws Exception {
        RawStomp raw = RawStomp.connect(port);
        for (int i = 0; i < FRAMES; i++) {
            raw.send("/app/count/" + run + "killed");
        }
        await().atMost(WAIT).until(() -> counting.tallies.containsKey(run + "killed"));
        raw.kill(); // no DISCONNECT frame, no WebSocket close frame: the TCP connection just goes away

        awaitWebSocketContexts(0);
        // Frames read before the connection dropped may still wait in the inbound channel: let them all run.
        await().atMost(WAIT).until(() -> inbound.getActiveCount() == 0
                && inbound.getThreadPoolExecutor().getQueue().isEmpty());
        assertThat(webSocketContexts()).as("late frames of the dropped session opened no new context").isZero();
        RendererSyncContext context = counting.tallies.get(run + "killed").onlyContext();
        assertThat(context.isClosed()).isTrue();
    }

    @Test
    void theQualifiedProxyAndTheParameterAreTheSessionsContextAndThePlainInjectionStaysHttp(Browser browser)
            throws Exception {
        StompSession session = openSession();
        try {
            session.send("/app/qualified", "x");
            assertThat(counting.qualified.get(30, SECONDS)).isEqualTo("ok");
        } finally {
            session.disconnect();
        }
        assertThat(browser.get("/http-context").body()).as("the plain injected context is the HTTP session's")
                .startsWith("session-");
    }

    // ---------------------------------------------------------------- helpers

    private StompSession openSession() throws Exception {
        return stomp.connect("/stomp");
    }

    @Override
    Connection connect() throws Exception {
        StompSession session = openSession();
        return new Connection() {
            @Override
            public void send(String label) {
                session.send("/app/count/" + label, "x");
            }

            @Override
            public void close() {
                session.disconnect();
            }
        };
    }

    @Override
    Map<String, Tally> tallies() {
        return counting.tallies;
    }

    private double queuedWebSocketTasks() {
        return meters.find("synccontext.tasks").tags("scope", WebSocketSessionContexts.SCOPE, "path", "queued")
                .functionCounters().stream().mapToDouble(c -> c.count()).sum();
    }

    private String prometheusWebSocketContexts() {
        String scrape = new Browser(port).get("/actuator/prometheus").body();
        for (String line : scrape.split("\n")) {
            if (line.startsWith("synccontext_contexts{") && line.contains("scope=\"websocket\"")) {
                return line.substring(line.lastIndexOf(' ') + 1);
            }
        }
        throw new AssertionError("no synccontext_contexts{scope=\"websocket\"} in the scrape");
    }

    /** STOMP frames written by hand over the JDK's WebSocket client, which can drop its connection abruptly. */
    static final class RawStomp implements WebSocket.Listener {
        private final CompletableFuture<Void> connected = new CompletableFuture<>();
        private WebSocket socket;

        static RawStomp connect(int port) throws Exception {
            RawStomp raw = new RawStomp();
            raw.socket = HttpClient.newHttpClient().newWebSocketBuilder()
                    .buildAsync(URI.create("ws://127.0.0.1:" + port + "/stomp"), raw).get(30, SECONDS);
            raw.socket.sendText("CONNECT\naccept-version:1.2\nhost:127.0.0.1\n\n\0", true).get(30, SECONDS);
            raw.connected.get(30, SECONDS);
            return raw;
        }

        void send(String destination) throws Exception {
            socket.sendText("SEND\ndestination:" + destination + "\n\nx\0", true).get(30, SECONDS);
        }

        void kill() {
            socket.abort();
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            if (data.toString().startsWith("CONNECTED")) {
                connected.complete(null);
            }
            webSocket.request(1);
            return null;
        }
    }

    // ---------------------------------------------------------------- the application

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import({ StompBroker.class, Counting.class })
    static class App {
    }

    @Controller
    static class Counting {

        final Map<String, Tally> tallies = new ConcurrentHashMap<>();
        final Map<String, Meeting> meetings = new ConcurrentHashMap<>();
        final CompletableFuture<String> qualified = new CompletableFuture<>();

        private final RendererSyncContext http;
        private final RendererSyncContext webSocket;
        private final SyncContextRegistry registry;

        Counting(RendererSyncContext http, @WebSocketSessionContext RendererSyncContext webSocket,
                SyncContextRegistry registry) {
            this.http = http;
            this.webSocket = webSocket;
            this.registry = registry;
        }

        /** Hands the increment to the session's context; Spring runs this on any inbound pool thread. */
        @MessageMapping("/count/{label}")
        void count(@DestinationVariable String label, RendererSyncContext context) {
            Tally tally = tallies.computeIfAbsent(label, k -> new Tally());
            context.invokeAsync(() -> tally.increment(context));
            tally.handled.incrementAndGet();
        }

        /** Two frames meet here only if Spring handles them at the same time. */
        @MessageMapping("/meet/{label}")
        void meet(@DestinationVariable String label) {
            Meeting meeting = meetings.computeIfAbsent(label, k -> new Meeting());
            try {
                meeting.barrier.await(20, SECONDS);
                meeting.met.incrementAndGet();
            } catch (Exception timedOutAlone) {
                // recorded by met staying below 2
            } finally {
                meeting.finished.incrementAndGet();
            }
        }

        @MessageMapping("/qualified")
        void qualified(RendererSyncContext parameter) {
            try {
                assertThat(registry.resolve(webSocket)).as("the qualified proxy here").isSameAs(parameter);
                assertThat(parameter.name()).startsWith("websocket-");
                assertThat(parameter.invokeAsync(() -> webSocket.checkAccess()).get(30, SECONDS))
                        .as("inside a callback, the proxy is that callback's context").isTrue();
                qualified.complete("ok");
            } catch (Throwable failed) {
                qualified.completeExceptionally(failed);
            }
        }

        @GetMapping("/http-context")
        @ResponseBody
        String httpContext() {
            return http.name();
        }
    }

    static final class Meeting {
        final CyclicBarrier barrier = new CyclicBarrier(2);
        final AtomicInteger met = new AtomicInteger();
        final AtomicInteger finished = new AtomicInteger();
    }
}
