package dev.synccontext.spring.live;


import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.RendererSyncContext;
import dev.synccontext.live.CloseReason;
import dev.synccontext.live.LiveStatistics;
import dev.synccontext.live.LiveSubscriber;
import dev.synccontext.spring.websocket.LocalStomp;
import dev.synccontext.spring.websocket.StompClients;
import dev.synccontext.testing.OnRandomPort;
import dev.synccontext.testing.StalledSocket;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.messaging.simp.SimpMessageHeaderAccessor;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.web.socket.messaging.SessionConnectEvent;
import org.springframework.web.socket.messaging.SessionDisconnectEvent;
import org.springframework.web.socket.messaging.WebSocketStompClient;

/**
 * A stalled STOMP client over real Tomcat and real sockets, with {@code setPreservePublishOrder(true)} (the
 * setup autoconfigure/docs/live-channels.md recommends, {@link LiveStompTest}'s app): one channel on one context, a healthy
 * subscriber ({@link WebSocketStompClient}) and a stalled one (a raw socket with a 2 KB receive buffer that
 * completes the handshake, CONNECTs, SUBSCRIBEs and subscribes, in real masked frames, then never reads), while
 * the state changes 5,000 times (about 10 MB, far beyond the socket buffers).
 *
 * <p>What it proves: the context is never blocked (each publishing callback returns within the latch's bound,
 * the watchdog reports nothing); the healthy subscriber gets every message, in order, and nothing else of the
 * session is affected; the stalled one costs a bounded buffer: at most its capacity in the channel, then
 * Spring's {@code sendBufferSizeLimit} (512 KB by default) in its {@code ConcurrentWebSocketSessionDecorator}
 * on top of what the kernel took; when that limit is exceeded Spring ends the session
 * ({@code SESSION_NOT_RELIABLE}) and its subscriber ends as too slow, counted in the live metrics. Spring
 * keeps the order with that decorator's buffer (the next message of a session is released once the previous
 * one is buffered, not written), so its limits apply in this mode too;
 * {@link LiveStompStalledClientUnorderedTest} is Spring's default mode.
 *
 * <p>No premise test ("without the mechanism, the context blocks"): nothing in STOMP writes to the socket on the
 * publisher's thread. {@code SimpMessagingTemplate} hands each message to the broker, which hands it to
 * {@code clientOutboundChannel}, a thread pool, so even a send straight from a callback returns at once; the
 * live channel's buffer adds the per-subscriber policy, not the non-blocking. What a stalled STOMP client can
 * hold is memory in Spring (bounded by its limits, asserted here) and, while one write is stuck, a thread of
 * that shared outbound pool (up to the container's blocking send timeout).
 */
@OnRandomPort(classes = {LiveStompTest.App.class, LiveStompStalledClientTest.Probe.class},
        properties = {"synccontext.live.buffer-capacity=256",
                "synccontext.blocked-threshold=500ms", "server.shutdown=immediate"})
@ExtendWith(LocalStomp.Resolver.class)
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

    /** Ends a write still blocked on the stalled client, which stopping this context would wait 20 s for. */
    @AfterEach
    void endTheStalledWrite() {
        System.out.println("Interrupted " + StalledOutboundWrites.interrupt()
                + " outbound thread(s) still blocked in a send to the stalled client");
    }

    /** Whether the broker keeps each session's order (this class) or not (Spring's default: the subclass). */
    boolean ordered() {
        return true;
    }

    @Test
    void aStalledStompClientNeverBlocksTheContextNorTheHealthySubscriberAndIsClosedInTheEnd(LocalStomp stomp)
            throws Exception {
        LiveStatistics statistics = channels.statistics("websocket");
        long slowBefore = statistics.slowDisconnects();
        stomp.client().setInboundMessageSizeLimit(64 * 1024);
        StompSession healthy = stomp.connect("/stomp");
        List<Long> seen = new CopyOnWriteArrayList<>();
        AtomicLong lastSeen = new AtomicLong(-1);
        try {
            StompClients.subscribe(healthy, "/user/topic/board", (headers, body) -> {
                String id = headers.getFirst(StompTransport.ID);
                long sequence = Long.parseLong(id.substring(id.lastIndexOf('-') + 1));
                seen.add(sequence);
                lastSeen.accumulateAndGet(sequence, Math::max);
            });
            healthy.send("/app/live-subscribe", "");
            await().atMost(GENEROUS).until(() -> app.live.subscribers().size() == 1 && !seen.isEmpty());
            LiveSubscriber fine = app.live.subscribers().get(0);
            String healthySession = probe.connected.get(0);
            // Counted from here, before the stalled client connects: the first subscription (class loading, first
            // use of the channel and the STOMP transport) can itself outlast the 500 ms threshold on a loaded
            // machine. The no-op callback waits until that subscription's callback has returned.
            app.context.invokeAsync(() -> { }).get(10, TimeUnit.SECONDS);
            long blockedBefore = app.context.blockedCallbackCount();

            try (StalledSocket stalledClient = StalledSocket.stomp(port, "/stomp", "/user/topic/board", "/app/live-subscribe")) {
                await().atMost(GENEROUS).until(() -> app.live.subscribers().size() == 2 && probe.connected.size() == 2);
                LiveSubscriber stalled = app.live.subscribers().stream().filter(s -> s != fine).findFirst().orElseThrow();
                String stalledSession = probe.connected.get(1);
                assertThat(statistics.subscribers()).as("both counted in the live metrics").isEqualTo(2);

                long slowestCallbackNanos = 0;
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
                }
                long publishedNanos = System.nanoTime() - started;
                assertThat(RendererSyncContext.blockedCallbacks()).as("no callback blocked").isEmpty();
                assertThat(app.context.blockedCallbackCount() - blockedBefore)
                        .as("the watchdog never saw the context blocked once the stalled client was there").isZero();

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
                long messageBytes = PAD.length() + 200; // the body, its STOMP headers and the WebSocket frame's
                long handedToSpring = stalled.written() * messageBytes;
                long bound = kernelSendBufferMax() + 64 * 1024 + SPRING_SEND_BUFFER_LIMIT + messageBytes;
                System.out.printf("stalled STOMP client (%s order): %d changes published in %d ms (slowest publishing"
                        + " callback %.2f ms); healthy got %d messages, dropped %d; stalled: %d messages (~%d KB) handed"
                        + " to Spring (bound: kernel %d KB + receive window 64 KB + Spring's %d KB + one message), own"
                        + " buffer high water %d/%d, dropped %d; Spring closed it with status %d %d ms after the first"
                        + " publish; close reason %s; slow disconnects counted %d%n",
                        ordered() ? "preserved" : "Spring's default", CHANGES, publishedNanos / 1_000_000,
                        slowestCallbackNanos / 1e6, seen.size(), fine.dropped(), stalled.written(), handedToSpring / 1024,
                        kernelSendBufferMax() / 1024, SPRING_SEND_BUFFER_LIMIT / 1024, stalled.highWater(), CAPACITY,
                        stalled.dropped(), closed.status, (closedAt - started) / 1_000_000, stalled.closeReason(),
                        statistics.slowDisconnects() - slowBefore);
                assertThat(handedToSpring).as("what the stalled subscriber handed to Spring before it ended: what"
                        + " the kernel took plus Spring's buffer limit").isLessThanOrEqualTo(bound);
                assertThat(closed.status).as("Spring's buffer limit closed it (SESSION_NOT_RELIABLE)").isEqualTo(4500);
                assertThat(stalled.closeReason()).isEqualTo(CloseReason.TOO_SLOW);
                assertThat(statistics.slowDisconnects() - slowBefore).as("counted as a slow disconnect").isEqualTo(1);
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

    /** The order in which STOMP sessions connected, and how each one ended (Spring's side). */
    @Configuration(proxyBeanMethods = false)
    static class Probe {

        final List<String> connected = new CopyOnWriteArrayList<>();
        final Map<String, Closed> disconnected = new ConcurrentHashMap<>();

        @EventListener
        void connect(SessionConnectEvent event) {
            connected.add(SimpMessageHeaderAccessor.getSessionId(event.getMessage().getHeaders()));
        }

        @EventListener
        void disconnect(SessionDisconnectEvent event) {
            disconnected.putIfAbsent(event.getSessionId(), new Closed(event.getCloseStatus().getCode(), System.nanoTime()));
        }
    }

    /** The most a socket's send buffer may grow to (Linux: {@code net.ipv4.tcp_wmem}'s maximum), else 4 MB. */
    static long kernelSendBufferMax() {
        try {
            String[] wmem = Files.readString(Path.of("/proc/sys/net/ipv4/tcp_wmem")).trim().split("\\s+");
            return Long.parseLong(wmem[2]);
        } catch (IOException | RuntimeException notLinux) {
            return 4L * 1024 * 1024;
        }
    }
}
