package dev.synccontext.autoconfigure.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.live.CloseReason;
import dev.synccontext.live.LiveStatistics;
import dev.synccontext.live.LiveSubscriber;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;
import org.springframework.messaging.MessageHandler;
import org.springframework.messaging.converter.StringMessageConverter;
import org.springframework.messaging.simp.SimpMessageHeaderAccessor;
import org.springframework.messaging.simp.SimpMessageType;
import org.springframework.messaging.simp.config.ChannelRegistration;
import org.springframework.messaging.simp.stomp.StompFrameHandler;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.messaging.simp.stomp.StompSessionHandlerAdapter;
import org.springframework.messaging.support.ExecutorChannelInterceptor;
import org.springframework.web.socket.client.standard.StandardWebSocketClient;
import org.springframework.web.socket.config.annotation.WebSocketMessageBrokerConfigurer;
import org.springframework.web.socket.messaging.SessionConnectEvent;
import org.springframework.web.socket.messaging.SessionDisconnectEvent;
import org.springframework.web.socket.messaging.WebSocketStompClient;

/**
 * A stalled STOMP client over real Tomcat and real sockets, with {@code setPreservePublishOrder(true)} (the
 * setup autoconfigure/README.md recommends, {@link LiveStompTest}'s app): one channel on one context, a healthy
 * subscriber ({@link WebSocketStompClient}) and a stalled one (a raw socket with a 2 KB receive buffer that
 * completes the handshake, CONNECTs, SUBSCRIBEs and subscribes, in real masked frames, then never reads), while
 * the state changes 5,000 times (about 10 MB, far beyond the socket buffers).
 *
 * <p>What it proves: the context is never blocked (each publishing callback returns within the latch's bound,
 * the watchdog reports nothing); the healthy subscriber gets every message, in order; the stalled one is
 * closed in the end, its subscriber ends and leaves the channel and the live metrics' subscriber count. And
 * what bounds it in this mode, which is not what the README used to claim: Spring's send time and buffer
 * limits ({@code ConcurrentWebSocketSessionDecorator}) never see the messages, which wait in the session's
 * ordered queue in front of them (spring-framework#25581); the bound is the container's blocking send
 * timeout (Tomcat: 20 s), after which Spring closes the session. {@link LiveStompStalledClientUnorderedTest}
 * is Spring's default mode, where those limits apply.
 *
 * <p>No premise test ("without the mechanism, the context blocks"): nothing in STOMP writes to the socket on the
 * publisher's thread. {@code SimpMessagingTemplate} hands each message to the broker, which hands it to
 * {@code clientOutboundChannel}, a thread pool, so even a send straight from a callback returns at once; the
 * live channel's buffer adds the per-subscriber policy, not the non-blocking. What a stalled STOMP client can
 * hold is a thread of that shared outbound pool and memory in Spring, which this test measures.
 */
@SpringBootTest(classes = {LiveStompTest.App.class, LiveStompStalledClientTest.Probe.class},
        webEnvironment = WebEnvironment.RANDOM_PORT, properties = {"synccontext.live.buffer-capacity=256",
                "synccontext.blocked-threshold=500ms", "server.shutdown=immediate"})
class LiveStompStalledClientTest {

    static final int CHANGES = 5_000;
    static final int BATCH = 100;
    static final int CAPACITY = 256;
    /** About 2 KB per message: 5,000 of them are 10 MB, more than the kernel buffers a stalled socket can take. */
    static final String PAD = "x".repeat(2_000);
    /** Spring's default {@code WebSocketTransportRegistration} buffer limit, in bytes. */
    static final int SPRING_SEND_BUFFER_LIMIT = 512 * 1024;
    static final Duration GENEROUS = Duration.ofSeconds(10);

    @LocalServerPort
    int port;

    @Autowired
    LiveStompTest.App app;

    @Autowired
    Probe probe;

    @Autowired
    LiveChannels channels;

    /** Whether the broker keeps each session's order (this class) or not (Spring's default: the subclass). */
    boolean ordered() {
        return true;
    }

    @Test
    void aStalledStompClientNeverBlocksTheContextNorTheHealthySubscriberAndIsClosedInTheEnd() throws Exception {
        LiveStatistics statistics = channels.statistics("websocket");
        long slowBefore = statistics.slowDisconnects();
        WebSocketStompClient client = new WebSocketStompClient(new StandardWebSocketClient());
        client.setMessageConverter(new StringMessageConverter());
        client.setInboundMessageSizeLimit(64 * 1024);
        StompSession healthy = client.connectAsync("ws://127.0.0.1:" + port + "/stomp", new StompSessionHandlerAdapter() {
        }).get(10, TimeUnit.SECONDS);
        List<Long> seen = new CopyOnWriteArrayList<>();
        AtomicLong lastSeen = new AtomicLong(-1);
        try {
            healthy.subscribe("/user/topic/board", new StompFrameHandler() {
                @Override
                public Type getPayloadType(StompHeaders headers) {
                    return String.class;
                }

                @Override
                public void handleFrame(StompHeaders headers, Object payload) {
                    String id = headers.getFirst(StompTransport.ID);
                    long sequence = Long.parseLong(id.substring(id.lastIndexOf('-') + 1));
                    seen.add(sequence);
                    lastSeen.accumulateAndGet(sequence, Math::max);
                }
            });
            healthy.send("/app/live-subscribe", "");
            await().atMost(GENEROUS).until(() -> app.live.subscribers().size() == 1 && !seen.isEmpty());
            LiveSubscriber fine = app.live.subscribers().get(0);
            String healthySession = probe.connected.get(0);

            try (StalledSocket stalledClient = StalledSocket.stomp(port, "/stomp", "/user/topic/board", "/app/live-subscribe")) {
                await().atMost(GENEROUS).until(() -> app.live.subscribers().size() == 2 && probe.connected.size() == 2);
                LiveSubscriber stalled = app.live.subscribers().stream().filter(s -> s != fine).findFirst().orElseThrow();
                String stalledSession = probe.connected.get(1);
                assertThat(statistics.subscribers()).as("both counted in the live metrics").isEqualTo(2);

                long slowestCallbackNanos = 0;
                long heldMax = 0;
                long started = System.nanoTime();
                for (int batch = 0; batch < CHANGES / BATCH; batch++) {
                    long first = (long) batch * BATCH + 1;
                    CountDownLatch published = new CountDownLatch(1);
                    AtomicLong took = new AtomicLong();
                    app.context.invokeAsync(() -> {
                        long entered = System.nanoTime();
                        for (long n = first; n < first + BATCH; n++) {
                            app.live.publish("board", "change " + n + " " + PAD);
                        }
                        took.set(System.nanoTime() - entered);
                        published.countDown();
                    });
                    assertThat(published.await(5, TimeUnit.SECONDS))
                            .as("batch %d's publishing callback finished without waiting for a socket", batch).isTrue();
                    slowestCallbackNanos = Math.max(slowestCallbackNanos, took.get());
                    long last = first + BATCH - 1;
                    // Paced by the healthy client, so that its own buffer never overflows: it must get every message.
                    await().atMost(GENEROUS).pollInterval(Duration.ofMillis(2)).until(() -> lastSeen.get() >= last);
                    heldMax = Math.max(heldMax, stalled.written() - probe.handled(stalledSession));
                }
                long publishedNanos = System.nanoTime() - started;
                assertThat(RendererSyncContext.blockedCallbacks()).as("no callback blocked").isEmpty();
                assertThat(app.context.blockedCallbackCount()).as("the watchdog never saw the context blocked").isZero();

                long last = app.live.lastSequence();
                assertThat(last).isEqualTo(CHANGES);
                await().atMost(GENEROUS).until(() -> seen.size() >= last + 1);
                if (ordered()) {
                    assertThat(seen).as("the healthy subscriber: the snapshot, then every message once, in order")
                            .containsExactlyElementsOf(LongStream.rangeClosed(0, last).boxed().toList());
                } else {
                    assertThat(seen).as("the healthy subscriber: every message once (Spring's outbound pool may"
                            + " reorder them in this mode)").containsExactlyInAnyOrderElementsOf(
                                    LongStream.rangeClosed(0, last).boxed().toList());
                }
                assertThat(fine.dropped()).isZero();
                assertThat(stalled.highWater()).as("the stalled subscriber's own buffer stayed within its capacity")
                        .isLessThanOrEqualTo(CAPACITY);

                // The stalled client: Spring closes its session in the end; its subscriber ends with it.
                long closedAt = await().atMost(Duration.ofSeconds(60)).until(() -> probe.disconnected.get(stalledSession),
                        at -> at != null).nanoTime;
                await().atMost(GENEROUS).until(() -> !stalled.isOpen());
                Closed closed = probe.disconnected.get(stalledSession);
                long stuckMillis = probe.longestGapNanos(stalledSession) / 1_000_000;
                long heldBytes = heldMax * (PAD.length() + 64);
                System.out.printf("stalled STOMP client (%s order): %d changes published in %d ms (slowest publishing"
                        + " callback %.2f ms); healthy got %d messages, dropped %d; stalled: written to Spring %d,"
                        + " handled by the outbound channel %d, at most %d messages (~%d KB) queued in Spring, own buffer"
                        + " high water %d/%d; one write stuck for %d ms; closed with status %d %d ms after the first"
                        + " publish (%d ms after the last); close reason %s%n", ordered() ? "preserved" : "Spring's default", CHANGES,
                        publishedNanos / 1_000_000, slowestCallbackNanos / 1e6, seen.size(), fine.dropped(),
                        stalled.written(), probe.handled(stalledSession), heldMax, heldBytes / 1024, stalled.highWater(),
                        CAPACITY, stuckMillis, closed.status, (closedAt - started) / 1_000_000,
                        (closedAt - started - publishedNanos) / 1_000_000, stalled.closeReason());
                if (ordered()) {
                    assertThat(heldBytes).as("with publish order kept, Spring's buffer limit never applied: more than"
                            + " it was queued for the stalled session").isGreaterThan(SPRING_SEND_BUFFER_LIMIT);
                    assertThat(stalled.closeReason()).as("closed after the container's blocking send failed")
                            .isEqualTo(CloseReason.GONE);
                } else {
                    assertThat(closed.status).as("Spring's limit closed it").isEqualTo(4500);
                    assertThat(stalled.closeReason()).isEqualTo(CloseReason.TOO_SLOW);
                    assertThat(statistics.slowDisconnects() - slowBefore).as("counted as a slow disconnect").isEqualTo(1);
                }
                assertThat(app.live.subscribers()).as("only the healthy subscriber is left").containsExactly(fine);
                assertThat(statistics.subscribers()).as("the live metrics count one subscriber").isEqualTo(1);

                // Nothing else affected: the healthy session still gets what comes next, promptly.
                assertThat(probe.disconnected).doesNotContainKey(healthySession);
                CountDownLatch once = new CountDownLatch(1);
                app.context.invokeAsync(() -> {
                    app.live.publish("board", "after");
                    once.countDown();
                });
                assertThat(once.await(5, TimeUnit.SECONDS)).isTrue();
                await().atMost(GENEROUS).until(() -> lastSeen.get() == last + 1);
                assertThat(healthy.isConnected()).isTrue();
            }
        } finally {
            healthy.disconnect();
        }
    }

    record Closed(int status, long nanoTime) {
    }

    /**
     * Watches Spring's side: the outbound channel's handled messages per session (after the socket write
     * returned, or the message was buffered or dropped by the session's decorator), and each session's end.
     */
    @Configuration(proxyBeanMethods = false)
    static class Probe implements WebSocketMessageBrokerConfigurer {

        final List<String> connected = new CopyOnWriteArrayList<>();
        final Map<String, Closed> disconnected = new ConcurrentHashMap<>();
        private final Map<String, AtomicLong> handled = new ConcurrentHashMap<>();
        private final Map<String, AtomicLong> lastHandledAt = new ConcurrentHashMap<>();
        private final Map<String, AtomicLong> longestGap = new ConcurrentHashMap<>();

        long handled(String session) {
            AtomicLong count = handled.get(session);
            return count == null ? 0 : count.get();
        }

        /** The longest time between two handled messages of {@code session}: how long one write was stuck. */
        long longestGapNanos(String session) {
            AtomicLong gap = longestGap.get(session);
            return gap == null ? 0 : gap.get();
        }

        @Override
        public void configureClientOutboundChannel(ChannelRegistration registration) {
            registration.interceptors(new ExecutorChannelInterceptor() {
                @Override
                public void afterMessageHandled(Message<?> message, MessageChannel channel, MessageHandler handler,
                        Exception failure) {
                    String session = SimpMessageHeaderAccessor.getSessionId(message.getHeaders());
                    if (session != null && SimpMessageHeaderAccessor.getMessageType(message.getHeaders())
                            == SimpMessageType.MESSAGE) {
                        handled.computeIfAbsent(session, s -> new AtomicLong()).incrementAndGet();
                        long now = System.nanoTime();
                        long previous = lastHandledAt.computeIfAbsent(session, s -> new AtomicLong(now)).getAndSet(now);
                        longestGap.computeIfAbsent(session, s -> new AtomicLong()).accumulateAndGet(now - previous, Math::max);
                    }
                }
            });
        }

        @EventListener
        void connect(SessionConnectEvent event) {
            connected.add(SimpMessageHeaderAccessor.getSessionId(event.getMessage().getHeaders()));
        }

        @EventListener
        void disconnect(SessionDisconnectEvent event) {
            disconnected.putIfAbsent(event.getSessionId(), new Closed(event.getCloseStatus().getCode(), System.nanoTime()));
        }
    }
}
