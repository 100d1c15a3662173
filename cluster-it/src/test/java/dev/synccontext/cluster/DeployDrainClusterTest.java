package dev.synccontext.cluster;

import static dev.synccontext.cluster.BoardTabs.consecutive;
import static dev.synccontext.cluster.BoardTabs.count;
import static dev.synccontext.cluster.BoardTabs.epoch;
import static dev.synccontext.cluster.BoardTabs.firstOf;
import static dev.synccontext.cluster.BoardTabs.incrementAll;
import static dev.synccontext.cluster.BoardTabs.lastCount;
import static dev.synccontext.cluster.BoardTabs.node;
import static dev.synccontext.cluster.BoardTabs.openByNode;
import static dev.synccontext.cluster.BoardTabs.sequences;
import static dev.synccontext.cluster.BoardTabs.sessions;
import static dev.synccontext.cluster.BoardTabs.settled;
import static dev.synccontext.testing.Arrivals.histogram;
import static dev.synccontext.testing.Arrivals.maxInWindow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.spring.live.LiveChannels;
import dev.synccontext.testing.Hiccups;
import dev.synccontext.live.LiveStatistics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * The deploy proof: with two nodes behind nginx, the tabs of a node that is stopped (SIGTERM, as a
 * deployment stops it) are told to go away, at the drain's pace, reconnect through nginx with their
 * {@code Last-Event-ID} and session cookie, land on the other node and get a snapshot that shows their
 * session's state (Spring Session, in Redis); the other node's own tabs notice nothing.
 *
 * <p>Node A (a child JVM, {@code synccontext.live.shutdown-pace} {@value #PACE}/s, shutdown timeout
 * {@link #SHUTDOWN_TIMEOUT}) and node B (in this JVM, so its beans can be read) behind nginx with session
 * affinity; {@value #TABS} tabs, each its own session, each with one {@link SessionBoard} stream
 * ({@link SseTabs}). Every tab changes its board once it is subscribed, so each has seen a snapshot and an
 * event. Then node A gets SIGTERM. Asserted:
 * <ul>
 *   <li>every tab of A received {@code going-away}, as the last event of a stream the server then completed;
 *       it reconnected once, sending the id of the last event it had and its cookies; B received exactly
 *       that (session and {@code Last-Event-ID}); B answered with a {@code snapshot} (not a replay: A's ids
 *       have another epoch) from node B showing the value the tab had seen; its next change continues the
 *       new stream's sequence;</li>
 *   <li>every tab of B kept its one stream: no going-away, no end, no reconnect, consecutive ids;</li>
 *   <li>A exited within {@code synccontext.shutdown-timeout} + 2 s, its drain told every subscriber to go
 *       away before the deadline, and Tomcat's graceful phase found no request left;</li>
 *   <li>the reconnects reached B paced: at most pace × {@link #PACE_TOLERANCE} in any second, plus what a stall
 *       of this JVM ({@link Hiccups}, the longest) let pile up, spread over about (tabs of A - 1) / pace;</li>
 *   <li>the premise, on node A2 ({@code synccontext.drain.enabled=false}, behind a second nginx with B; in this
 *       JVM, closed as the JVM's shutdown hook closes it on SIGTERM, because a third JVM would cost the shared
 *       machine more than the test may take): its tabs get no {@code going-away}; their streams stay open until
 *       Boot's graceful phase gives up ({@code spring.lifecycle.timeout-per-shutdown-phase}, logged as aborted
 *       with requests still active) and then end as Tomcat stops (cut or completed by the container, it varies),
 *       all at once; the tabs still recover on B (the state is in Redis), unpaced;</li>
 *   <li>nothing is left running: every child JVM, nginx and redis-server exited.</li>
 * </ul>
 */
@ExtendWith(OutputCaptureExtension.class)
@Tag("cluster")
class DeployDrainClusterTest {

    static final int TABS = 300;
    static final int PACE = 50;
    static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(8);
    /** The premise node's {@code spring.lifecycle.timeout-per-shutdown-phase} (Boot's default is 30 s). */
    static final Duration PHASE_TIMEOUT = Duration.ofSeconds(4);
    static final int PREMISE_TABS = 40;
    /**
     * Reconnects counted in any one-second window may exceed the pace by this factor: the drain sends the
     * i-th going-away at i / pace, but a stall of the sending JVM, of nginx or of this one (the 2-core machine
     * is shared with other builds) delivers what was sent meanwhile together (ShutdownDrainProcessTest's
     * reasoning; 1.5 allows a 500 ms stall), while an unpaced end would bring all of them within milliseconds.
     */
    static final double PACE_TOLERANCE = 1.5;

    @Test
    void aStoppedNodesTabsGoAwayAtThePaceAndResumeOnTheOtherNodeWithTheirSessionsState(CapturedOutput output)
            throws Exception {
        String namespace = "it:deploy";
        Map<String, String> common = Map.of("synccontext.session.idle-timeout", "1h",
                "logging.level.org.springframework.boot.tomcat", "info");
        Map<String, String> drained = with(common, "synccontext.shutdown-timeout", SHUTDOWN_TIMEOUT.toSeconds() + "s",
                "synccontext.live.shutdown-pace", String.valueOf(PACE));
        Map<String, String> undrained = with(common, "synccontext.drain.enabled", "false",
                "spring.lifecycle.timeout-per-shutdown-phase", PHASE_TIMEOUT.toSeconds() + "s");
        long started = System.nanoTime();
        try (RedisServer redis = RedisServer.start();
                Background<ChildNode> startingA = Background.start(
                        () -> ChildNode.start("node-a", redis.port, "default", namespace, drained));
                Node nodeB = Node.start("node-b", redis.port, "default", namespace, common);
                Node nodeA2 = Node.start("node-a2", redis.port, "default", namespace, undrained);
                Nginx nginx = Nginx.start(Nginx.Balancing.AFFINITY, List.of(startingA.get().port, nodeB.port));
                Nginx nginx2 = Nginx.start(Nginx.Balancing.AFFINITY, List.of(nodeA2.port, nodeB.port));
                SseTabs tabs = new SseTabs(nginx.port);
                SseTabs premiseTabs = new SseTabs(nginx2.port)) {
            System.out.printf("[figure] deploy drain: daemons and nodes up in %d ms%n", millisSince(started));
            ChildNode nodeA = startingA.get();
            drainedNodesTabsMoveToTheOtherNode(nodeA, nodeB, nginx, tabs);
            withoutTheDrainNoTabIsToldAndTheStreamsEndWhenBootGivesUp(nodeA2, nginx2, premiseTabs, output);
            assertThat(tabs.failure()).isNull();
            assertThat(premiseTabs.failure()).isNull();
        }
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList())
                .as("child processes left (node JVMs, nginx, redis-server)").isEmpty();
        System.out.printf("[figure] deploy drain: whole test %d ms%n", millisSince(started));
    }

    private void drainedNodesTabsMoveToTheOtherNode(ChildNode nodeA, Node nodeB, Nginx nginx, SseTabs crowd)
            throws Exception {
        List<SseTabs.Tab> tabs = sessions(nginx.port, "/live/increment", TABS);
        Map<String, List<SseTabs.Tab>> byNode = openByNode(crowd, tabs);
        List<SseTabs.Tab> onA = byNode.getOrDefault("node-a", List.of());
        List<SseTabs.Tab> onB = byNode.getOrDefault("node-b", List.of());
        assertThat(byNode.keySet()).containsExactlyInAnyOrder("node-a", "node-b");
        assertThat(onA).as("tabs on node-a").hasSizeGreaterThanOrEqualTo(TABS / 5);
        assertThat(onB).as("tabs on node-b").hasSizeGreaterThanOrEqualTo(TABS / 5);

        incrementAll(nginx.port, "/live/increment", tabs, 2);
        await().atMost(Duration.ofSeconds(30)).until(() -> tabs.stream().allMatch(t -> lastCount(t.stream(0)) == 2));
        Map<SseTabs.Tab, String> lastSeen = new HashMap<>();
        tabs.forEach(tab -> lastSeen.put(tab, tab.lastEventId));

        Hiccups hiccups = Hiccups.start("deploy-drain"); // how long this JVM (node-b, the tabs) stalls meanwhile
        long sigterm = System.nanoTime();
        nodeA.terminate();
        boolean exited = nodeA.awaitExit(SHUTDOWN_TIMEOUT.plusSeconds(20));
        long exitMillis = millisSince(sigterm);
        assertThat(exited).as("node-a exited; its log:%n%s", nodeA.logText()).isTrue();
        await().atMost(Duration.ofSeconds(20)).until(() -> onA.stream().allMatch(t -> settled(t, 1)));

        List<Long> goingAways = new ArrayList<>();
        for (SseTabs.Tab tab : onA) {
            SseTabs.Stream first = tab.stream(0);
            assertThat(first.goingAwayAt).as("a tab of node-a got going-away").isPositive();
            assertThat(first.events.get(first.events.size() - 1).name()).as("going-away came last").isEqualTo("going-away");
            assertThat(first.completed).as("then node-a completed its stream").isTrue();
            assertThat(first.endedAt).isGreaterThanOrEqualTo(first.goingAwayAt);
            goingAways.add(first.goingAwayAt);

            assertThat(tab.streams).as("one reconnect, straight to node-b: %s", tab).hasSize(2);
            SseTabs.Stream second = tab.stream(1);
            assertThat(second.lastEventIdSent).as("the reconnect sent the last id it had").isEqualTo(lastSeen.get(tab));
            assertThat(second.status).as("the reconnect's answer: %s", tab).isEqualTo(200);
            SseTabs.Event snapshot = second.first();
            assertThat(snapshot.name()).as("a snapshot, not a replay").isEqualTo("snapshot");
            assertThat(node(snapshot)).isEqualTo("node-b");
            assertThat(count(snapshot)).as("the session's value, as the tab had seen it").isEqualTo(2);
            assertThat(epoch(snapshot.id())).as("node-b's channel has its own epoch").isNotEqualTo(epoch(lastSeen.get(tab)));
        }
        for (SseTabs.Tab tab : onB) {
            assertThat(tab.streams).as("a tab of node-b did not reconnect").hasSize(1);
            assertThat(tab.stream(0).ended()).as("a tab of node-b kept its stream").isFalse();
            assertThat(tab.stream(0).goingAwayAt).isNegative();
        }

        List<LiveArrivals.Arrival> arrivals = nodeB.context.getBean(LiveArrivals.class).all();
        Set<String> resumedOnB = arrivals.stream().filter(a -> a.lastEventId() != null)
                .map(a -> a.sessionId() + " " + a.lastEventId()).collect(Collectors.toSet());
        for (SseTabs.Tab tab : onA) {
            assertThat(resumedOnB).as("node-b got the tab's session and Last-Event-ID")
                    .contains(tab.sessionId() + " " + lastSeen.get(tab));
        }
        List<Long> reconnects = arrivals.stream().filter(a -> a.lastEventId() != null && a.nanoTime() > sigterm)
                .map(LiveArrivals.Arrival::nanoTime).sorted().toList();
        assertThat(reconnects).as("reconnects that reached node-b").hasSize(onA.size());
        hiccups.close();
        int maxPerSecond = maxInWindow(reconnects, TimeUnit.SECONDS.toNanos(1));
        // What arrives during a stall of this JVM is counted when it ends: a second's window holds its pace's
        // share plus the longest stall's (on a quiet machine a few ms; at load 15-20 it was seconds).
        double stallSeconds = hiccups.longest().toNanos() / 1e9;
        int perSecondBound = (int) (PACE * PACE_TOLERANCE * (1 + stallSeconds));
        double spread = (reconnects.get(reconnects.size() - 1) - reconnects.get(0)) / 1e9;

        incrementAll(nginx.port, "/live/increment", tabs, 3);
        await().atMost(Duration.ofSeconds(30)).until(() -> tabs.stream().allMatch(t -> lastCount(t.last()) == 3));
        for (SseTabs.Tab tab : tabs) {
            assertThat(sequences(tab.last())).as("each stream's ids go on without a gap").isEqualTo(consecutive(tab.last()));
        }

        LiveStatistics onBStatistics = nodeB.context.getBean(LiveChannels.class).statistics("session");
        String log = nodeA.logText();
        Matcher report = Pattern.compile("Shutdown drain: Report\\[.*goneAway=(\\d+), goneAwayAtDeadline=(\\d+)").matcher(log);
        assertThat(report.find()).as("node-a logged its drain:%n%s", log).isTrue();
        System.out.printf("[figure] deploy drain: tabs node-a %d, node-b %d; node-a exit %d ms after SIGTERM (timeout %d s,"
                + " pace %d/s); reconnects on node-b %d (snapshot %d, replay %d), over %.2f s, at most %d in any second,"
                + " per second %s, longest stall of this JVM %d ms; node-b live counters: snapshots %d, resumed %d%n", onA.size(), onB.size(), exitMillis,
                SHUTDOWN_TIMEOUT.toSeconds(), PACE, reconnects.size(),
                onA.stream().filter(t -> firstOf(t, 1).name().equals("snapshot")).count(),
                onA.stream().filter(t -> !firstOf(t, 1).name().equals("snapshot")).count(), spread, maxPerSecond,
                histogram(reconnects, TimeUnit.SECONDS.toNanos(1)), hiccups.longest().toMillis(), onBStatistics.snapshots(), onBStatistics.resumed());
        System.out.println("[figure] deploy drain: node-a " + report.group(0));

        assertThat(Duration.ofMillis(exitMillis)).as("node-a's exit after SIGTERM")
                .isLessThanOrEqualTo(SHUTDOWN_TIMEOUT.plusSeconds(2));
        assertThat(Integer.parseInt(report.group(1))).as("subscribers node-a told to go away").isEqualTo(onA.size());
        assertThat(Integer.parseInt(report.group(2))).as("told at the deadline, all at once").isZero();
        assertThat(log).as("Tomcat's graceful phase found no stream left").contains("Graceful shutdown complete")
                .doesNotContain("Graceful shutdown aborted");
        assertThat(maxPerSecond).as("reconnects in any second (pace %d/s, this JVM stalled %.3f s at most)", PACE,
                stallSeconds).isLessThanOrEqualTo(perSecondBound);
        assertThat(spread).as("the reconnects spread over (tabs of node-a - 1) / pace")
                .isGreaterThanOrEqualTo((onA.size() - 1) / (double) PACE * 0.8);
        assertThat(onBStatistics.resumed()).as("replays on node-b: none could match another node's ids").isZero();
    }

    private void withoutTheDrainNoTabIsToldAndTheStreamsEndWhenBootGivesUp(Node nodeA2, Nginx nginx2, SseTabs crowd,
            CapturedOutput output) throws Exception {
        List<SseTabs.Tab> tabs = sessions(nginx2.port, "/live/increment", PREMISE_TABS);
        tabs.forEach(crowd::open);
        await().atMost(Duration.ofSeconds(60)).until(() -> tabs.stream().allMatch(t -> firstOf(t, 0) != null));
        List<SseTabs.Tab> onA2 = tabs.stream().filter(t -> node(firstOf(t, 0)).equals("node-a2")).toList();
        assertThat(onA2).as("premise tabs on node-a2").hasSizeGreaterThanOrEqualTo(PREMISE_TABS / 5);

        // What the JVM's shutdown hook does on SIGTERM (SpringApplicationShutdownHook), in this JVM: close the context.
        long sigterm = System.nanoTime();
        CompletableFuture<Void> closing = CompletableFuture.runAsync(nodeA2::close,
                runnable -> new Thread(runnable, "close-node-a2").start());
        closing.get(PHASE_TIMEOUT.toSeconds() + 30, TimeUnit.SECONDS);
        long exitMillis = millisSince(sigterm);
        await().atMost(Duration.ofSeconds(30)).until(() -> onA2.stream().allMatch(t -> settled(t, 1)));

        List<Long> ends = onA2.stream().map(t -> t.stream(0).endedAt).sorted().toList();
        List<Long> back = onA2.stream().map(t -> t.stream(1).first().at()).sorted().toList();
        System.out.printf("[figure] deploy drain, premise (drain off, phase timeout %d s): node-a2 tabs %d, exit %d ms"
                + " after close, streams ended %d ms after it, first to last %d ms, cut (no last chunk) %d, going-away %d;"
                + " back on node-b %d, at most %d in any second%n", PHASE_TIMEOUT.toSeconds(), onA2.size(), exitMillis,
                TimeUnit.NANOSECONDS.toMillis(ends.get(0) - sigterm),
                TimeUnit.NANOSECONDS.toMillis(ends.get(ends.size() - 1) - ends.get(0)),
                onA2.stream().filter(t -> !t.stream(0).completed).count(),
                onA2.stream().filter(t -> t.stream(0).goingAwayAt >= 0).count(), back.size(),
                maxInWindow(back, TimeUnit.SECONDS.toNanos(1)));

        // How each stream ends when Tomcat stops with it still open varies (some are cut, some completed by the
        // container); what never happens without the drain is a going-away before that end.
        assertThat(onA2).as("without the drain no tab is told to go away")
                .allSatisfy(tab -> assertThat(tab.stream(0).goingAwayAt).isNegative());
        assertThat(output.getOut()).as("Boot's graceful phase waited for the open streams until it gave up")
                .contains("Graceful shutdown aborted with one or more requests still active");
        assertThat(ends.get(0) - sigterm).as("no stream ended before the phase timeout")
                .isGreaterThanOrEqualTo(PHASE_TIMEOUT.toNanos());
        assertThat(onA2).as("the state is in Redis: the tabs still recover on node-b").allSatisfy(tab -> {
            assertThat(node(tab.stream(1).first())).isEqualTo("node-b");
            assertThat(count(tab.stream(1).first())).isEqualTo(1);
        });
    }

    // ---------------------------------------------------------------- figures

    private static long millisSince(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
    }

    private static Map<String, String> with(Map<String, String> base, String... keysAndValues) {
        Map<String, String> all = new HashMap<>(base);
        for (int i = 0; i < keysAndValues.length; i += 2) {
            all.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return all;
    }

    /** A daemon started on another thread, so several start at once; closed (stopped) with the test's resources. */
    static final class Background<T extends AutoCloseable> implements AutoCloseable {

        private final CompletableFuture<T> future;

        private Background(CompletableFuture<T> future) {
            this.future = future;
        }

        static <T extends AutoCloseable> Background<T> start(Supplier<T> start) {
            return new Background<>(CompletableFuture.supplyAsync(start, runnable -> new Thread(runnable, "start").start()));
        }

        T get() throws Exception {
            return future.get(300, TimeUnit.SECONDS);
        }

        @Override
        public void close() throws Exception {
            T started;
            try {
                started = future.get(300, TimeUnit.SECONDS);
            } catch (ExecutionException failedToStart) {
                return; // it did not start: its start stopped what it had started, and the test fails with why
            }
            started.close();
        }
    }
}
