package dev.synccontext.autoconfigure.shutdown;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import dev.synccontext.testing.SseCrowd;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Drain on shutdown of a WebFlux application, end to end: {@link FluxDrainApp} runs as its own JVM on Reactor
 * Netty with {@value #STREAMS} {@code LiveFlux} event streams open (raw sockets, {@link SseCrowd}, each its own
 * {@code WebSession}); the test sends it SIGTERM and asserts that it exits within
 * {@code synccontext.shutdown-timeout} + 2 s (the server's graceful phase finds no stream left to wait for), that
 * every stream got its {@code going-away} event, last, then its end, and that the drain counted every one as gone
 * away on time, none forced. No child process is left.
 */
@Tag("process")
class LiveFluxShutdownProcessTest {

    static final int STREAMS = 500;
    static final int PACE = 500;
    static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(8);

    @Test
    void sigtermWithOpenEventStreamsSendsEachItsGoingAwayAndExitsWithinTheDeadline() throws Exception {
        Process app = start();
        List<String> out = new CopyOnWriteArrayList<>();
        Thread pump = DrainAppProcess.pump(app, out);
        try (SseCrowd crowd = new SseCrowd(DrainAppProcess.port(app, out))) {
            for (int opened = 0; opened < STREAMS; opened += 100) {
                List<SseCrowd.Tab> batch = crowd.open("/events", 100);
                await().atMost(Duration.ofSeconds(60)).until(() -> batch.stream().allMatch(c -> c.snapshotAt() >= 0));
            }
            long sigterm = System.nanoTime();
            app.toHandle().destroy(); // SIGTERM
            boolean exited = app.waitFor(SHUTDOWN_TIMEOUT.toSeconds() + 20, TimeUnit.SECONDS);
            long exitNanos = System.nanoTime() - sigterm;
            assertThat(exited).as("exited; its output:%n%s", String.join("\n", out)).isTrue();
            pump.join(5_000);
            System.out.printf("flux drain process: %d event streams, exit %d ms after SIGTERM%n", STREAMS,
                    TimeUnit.NANOSECONDS.toMillis(exitNanos));
            out.stream().filter(line -> line.startsWith(DrainApp.OUT)).forEach(System.out::println);
            assertThat(out).as("the application ran on Reactor Netty").contains(DrainApp.OUT + "server=NettyWebServer");

            assertThat(Duration.ofNanos(exitNanos)).as("exit after SIGTERM")
                    .isLessThanOrEqualTo(SHUTDOWN_TIMEOUT.plusSeconds(2));
            List<SseCrowd.Tab> streams = crowd.tabs();
            assertThat(crowd.failure()).as("the SSE crowd's selector").isNull();
            await().atMost(Duration.ofSeconds(5)).until(() -> streams.stream().allMatch(c -> c.endedAt() >= 0));
            assertThat(streams).as("event streams that got the going-away event, last, then their end")
                    .allSatisfy(c -> {
                        assertThat(c.goingAwayAt()).isPositive();
                        assertThat(c.goingAwayLast()).isTrue();
                        assertThat(c.endedAt()).isGreaterThanOrEqualTo(c.goingAwayAt());
                    });
            Map<String, Long> report = DrainAppProcess.counts(out, "report ");
            assertThat(report.get("goneAway")).isEqualTo(STREAMS);
            DrainAppProcess.assertDrainedWithinTheDeadline(out);
        } finally {
            DrainAppProcess.stop(app, out, "flux-drain-app.log");
        }
    }

    private static Process start() throws Exception {
        return DrainAppProcess.start(FluxDrainApp.class, List.of("--spring.main.web-application-type=reactive",
                "--server.port=0", "--spring.main.banner-mode=off", "--logging.level.root=WARN",
                "--logging.level.dev.synccontext.autoconfigure.shutdown=INFO",
                "--synccontext.shutdown-timeout=" + SHUTDOWN_TIMEOUT.toSeconds() + "s",
                "--synccontext.live.shutdown-pace=" + PACE));
    }
}
