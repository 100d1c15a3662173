package dev.synccontext.autoconfigure.shutdown;

import static dev.synccontext.testing.Arrivals.histogram;
import static dev.synccontext.testing.Arrivals.maxInWindow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.testing.SseCrowd;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.messaging.converter.StringMessageConverter;
import org.springframework.messaging.simp.stomp.StompCommand;
import org.springframework.messaging.simp.stomp.StompFrameHandler;
import org.springframework.messaging.simp.stomp.StompHeaders;
import org.springframework.messaging.simp.stomp.StompSession;
import org.springframework.messaging.simp.stomp.StompSessionHandlerAdapter;
import org.springframework.web.socket.client.standard.StandardWebSocketClient;
import org.springframework.web.socket.messaging.WebSocketStompClient;

/**
 * Drain on shutdown, end to end: {@link DrainApp} runs as its own JVM (the test's class path), with
 * {@value #SSE} SSE subscribers (raw sockets, {@link SseCrowd}) and {@value #STOMP} STOMP sessions
 * ({@link WebSocketStompClient}) connected and a load of callbacks running; the test sends it SIGTERM
 * ({@link ProcessHandle#destroy()}) and asserts, from the clients' side and the app's printed counts:
 * <ul>
 *   <li>it exits within {@code synccontext.shutdown-timeout} + 2 s (not Boot's 30 s phase timeout);</li>
 *   <li>every subscriber got its going-away: SSE a {@code going-away} event, last, then the end of its
 *       stream; STOMP an ERROR frame ({@code live-event: going-away}), then its connection closed;</li>
 *   <li>the going-aways arrived no faster than {@code synccontext.live.shutdown-pace} (see
 *       {@link #PACE_TOLERANCE}), and spread over about subscribers / pace;</li>
 *   <li>every callback submitted ran or was refused with its reason: submitted = ran + refused (+ cancelled),
 *       none unanswered, and some were refused (the load met the drain);</li>
 *   <li>readiness went to {@code REFUSING_TRAFFIC} before the drain's report; no child process is left.</li>
 * </ul>
 */
@Tag("process")
class ShutdownDrainProcessTest {

    static final int SSE = 2000;
    static final int STOMP = 500;
    static final int PACE = 500;
    static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(8);
    /** Going-aways counted in any sliding window of this length... */
    static final Duration WINDOW = Duration.ofSeconds(1);
    /**
     * ...may exceed pace × window by this factor. The server emits the i-th at i / pace (its schedule slips
     * rather than catching up after a stall of its own: {@code ShutdownDrain.MAX_CATCH_UP_NANOS}); the
     * clients stamp arrivals, so a stall of the client's or the server's process after a close was written
     * (a GC, or the CPU going to another of the builds sharing this 2-core machine: we saw gaps of 400 ms
     * at a load average of 17) delivers what was sent meanwhile together, at most stall × pace extra in one
     * window: 1.5 allows a 500 ms stall in a 1 s window, while an unpaced close (all 2,500 within
     * milliseconds) exceeds pace × window fivefold.
     */
    static final double PACE_TOLERANCE = 1.5;

    @Test
    void sigtermDrainsEverySubscriberAtThePaceAndExitsWithinTheTimeout() throws Exception {
        Process app = start();
        List<String> out = new CopyOnWriteArrayList<>();
        Thread pump = DrainAppProcess.pump(app, out);
        WebSocketStompClient stompClient = new WebSocketStompClient(new StandardWebSocketClient());
        stompClient.setMessageConverter(new StringMessageConverter());
        List<StompTab> stompTabs = new ArrayList<>();
        try (SseCrowd crowd = new SseCrowd(DrainAppProcess.port(app, out))) {
            int port = DrainAppProcess.port(app, out);
            for (int opened = 0; opened < SSE; opened += 250) {
                List<SseCrowd.Tab> batch = crowd.open("/events", Math.min(250, SSE - opened));
                await().atMost(Duration.ofSeconds(60)).until(() -> batch.stream().allMatch(c -> c.snapshotAt() >= 0));
            }
            for (int i = 0; i < STOMP; i++) {
                StompTab tab = new StompTab();
                tab.session = stompClient.connectAsync("ws://127.0.0.1:" + port + "/stomp", tab).get(30, TimeUnit.SECONDS);
                tab.session.subscribe("/user/topic/board", tab);
                tab.session.send("/app/live-subscribe", "");
                stompTabs.add(tab);
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> stompTabs.stream().allMatch(t -> t.subscribedAt.get() >= 0));

            long sigterm = System.nanoTime();
            app.toHandle().destroy(); // SIGTERM; Process.destroy() would also close our end of its output
            boolean exited = app.waitFor(SHUTDOWN_TIMEOUT.toSeconds() + 10, TimeUnit.SECONDS);
            long exitNanos = System.nanoTime() - sigterm;
            assertThat(exited).as("exited; its output:%n%s", String.join("\n", out)).isTrue();
            pump.join(5_000);
            System.out.printf("drain process: %d SSE + %d STOMP subscribers, exit %d ms after SIGTERM%n", SSE, STOMP,
                    TimeUnit.NANOSECONDS.toMillis(exitNanos));
            out.stream().filter(line -> line.startsWith(DrainApp.OUT)).forEach(System.out::println);

            assertThat(Duration.ofNanos(exitNanos)).as("exit after SIGTERM")
                    .isLessThanOrEqualTo(SHUTDOWN_TIMEOUT.plusSeconds(2));

            List<SseCrowd.Tab> sse = crowd.tabs();
            assertThat(crowd.failure()).as("the SSE crowd's selector").isNull();
            await().atMost(Duration.ofSeconds(5)).until(() -> sse.stream().allMatch(c -> c.endedAt() >= 0)
                    && stompTabs.stream().allMatch(t -> t.closedAt.get() >= 0));
            assertThat(sse).as("SSE clients that got the going-away event, last, then the end of their stream")
                    .allSatisfy(c -> {
                        assertThat(c.goingAwayAt()).isPositive();
                        assertThat(c.goingAwayLast()).isTrue();
                        assertThat(c.endedAt()).isGreaterThanOrEqualTo(c.goingAwayAt());
                    });
            assertThat(stompTabs).as("STOMP sessions that got the going-away ERROR frame, then were closed")
                    .allSatisfy(t -> {
                        assertThat(t.goingAwayAt.get()).isPositive();
                        assertThat(t.closedAt.get()).isGreaterThanOrEqualTo(t.goingAwayAt.get());
                    });

            List<Long> arrivals = new ArrayList<>();
            sse.forEach(c -> arrivals.add(c.goingAwayAt()));
            stompTabs.forEach(t -> arrivals.add(t.goingAwayAt.get()));
            arrivals.sort(null);
            int maxInWindow = maxInWindow(arrivals, WINDOW.toNanos());
            double spreadSeconds = (arrivals.get(arrivals.size() - 1) - arrivals.get(0)) / 1e9;
            System.out.printf("going-away: %d arrivals over %.2f s, at most %d in any %d ms (pace %d/s)%n",
                    arrivals.size(), spreadSeconds, maxInWindow, WINDOW.toMillis(), PACE);
            System.out.println("going-away arrivals per 100 ms: " + histogram(arrivals, 100_000_000L)
                    + " (SSE " + histogram(sse.stream().map(SseCrowd.Tab::goingAwayAt).sorted().toList(), 100_000_000L)
                    + ")");
            assertThat(maxInWindow).as("going-aways in any %s window", WINDOW)
                    .isLessThanOrEqualTo((int) (PACE * WINDOW.toMillis() / 1000.0 * PACE_TOLERANCE));
            assertThat(spreadSeconds).as("the going-aways are spread over (subscribers - 1) / pace")
                    .isGreaterThanOrEqualTo((SSE + STOMP - 1) / (double) PACE * 0.9);

            Map<String, Long> load = DrainAppProcess.counts(out, "load ");
            Map<String, Long> report = DrainAppProcess.counts(out, "report ");
            assertThat(load.get("submitted")).as("every submission answered").isEqualTo(load.get("answered"));
            assertThat(load.get("submitted")).as("submitted = ran + refused + cancelled")
                    .isEqualTo(load.get("ran") + load.get("refused") + load.get("cancelled"));
            assertThat(load.get("failed")).isZero();
            assertThat(load.get("refused")).as("the load met the drain's refusal").isPositive();
            assertThat(report.get("refused")).as("the drain counted refusals").isPositive();
            assertThat(report.get("goneAway") + report.get("goneAwayAtDeadline")).isEqualTo(SSE + STOMP);
            DrainAppProcess.assertDrainedWithinTheDeadline(out);
        } finally {
            stompTabs.forEach(StompTab::disconnectQuietly);
            DrainAppProcess.stop(app, out, "drain-app.log");
        }
    }

    private static Process start() throws Exception {
        return DrainAppProcess.start(DrainApp.class, List.of("--server.port=0", "--spring.main.banner-mode=off",
                "--logging.level.root=WARN", "--logging.level.dev.synccontext.autoconfigure.shutdown=INFO",
                "--logging.level.org.springframework.boot.web.server=INFO", "--logging.level.org.springframework.context=INFO",
                "--synccontext.shutdown-timeout=" + SHUTDOWN_TIMEOUT.toSeconds() + "s",
                "--synccontext.live.shutdown-pace=" + PACE, "--server.tomcat.max-connections=10000",
                "--server.tomcat.accept-count=1000"));
    }

    /** One STOMP session: its snapshot, its going-away ERROR frame and its connection's end, stamped. */
    static final class StompTab extends StompSessionHandlerAdapter implements StompFrameHandler {
        @Nullable StompSession session;
        final AtomicLong subscribedAt = new AtomicLong(-1);
        final AtomicLong goingAwayAt = new AtomicLong(-1);
        final AtomicLong closedAt = new AtomicLong(-1);

        @Override
        public Type getPayloadType(StompHeaders headers) {
            return String.class;
        }

        @Override
        public void handleFrame(StompHeaders headers, @Nullable Object payload) {
            long now = System.nanoTime();
            if ("going-away".equals(headers.getFirst("live-event"))) {
                goingAwayAt.compareAndSet(-1, now);
            } else if ("true".equals(headers.getFirst("live-snapshot"))) {
                subscribedAt.compareAndSet(-1, now);
            }
        }

        @Override
        public void handleTransportError(StompSession session, Throwable exception) {
            closedAt.compareAndSet(-1, System.nanoTime());
        }

        @Override
        public void handleException(StompSession session, @Nullable StompCommand command, StompHeaders headers,
                byte[] payload, Throwable exception) {
        }

        void disconnectQuietly() {
            StompSession open = session;
            if (open != null && open.isConnected()) {
                try {
                    open.disconnect();
                } catch (RuntimeException gone) {
                    // closed by the server already
                }
            }
        }
    }
}
