package dev.synccontext.cluster;

import static dev.synccontext.cluster.BoardTabs.count;
import static dev.synccontext.cluster.BoardTabs.epoch;
import static dev.synccontext.cluster.BoardTabs.incrementAll;
import static dev.synccontext.cluster.BoardTabs.lastCount;
import static dev.synccontext.cluster.BoardTabs.node;
import static dev.synccontext.cluster.BoardTabs.openByNode;
import static dev.synccontext.cluster.BoardTabs.sessions;
import static dev.synccontext.cluster.BoardTabs.settled;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.cluster.DeployDrainClusterTest.Background;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A tab follows its session's durable state to another node when its node is deployed, on Spring MVC
 * ({@link DurableClusterApp}) and on WebFlux ({@link DurableFluxClusterApp}): two child-JVM nodes (a {@code @Durable}
 * counter, and a node-local {@link DurableBoard} streaming it) on one
 * {@code redis-server}, behind nginx with session affinity; {@value #TABS} sessions, one board tab each
 * ({@link SseTabs}). The debounce is longer than the test, so nothing is checkpointed: what a session's next node
 * restores can only come from the stopped node's shutdown drain. Node A gets SIGTERM; asserted:
 * <ul>
 *   <li>every tab of A got {@code going-away}, reconnected once through nginx and was answered {@code 200} by B
 *       with a snapshot showing every change A answered for (restored from A's final snapshot), from B's channel
 *       (another epoch);</li>
 *   <li>B took each session from a released record: no request of B waited for A (no hand-off request, no
 *       timeout), and every session's next change through nginx counts on from there;</li>
 *   <li>nothing is left running.</li>
 * </ul>
 */
@Tag("cluster")
class DurableTabsClusterTest {

    static final int TABS = 40;
    static final int PACE = 40;
    static final Duration SHUTDOWN_TIMEOUT = Duration.ofSeconds(8);
    static final String INCREMENT = "/durable/board/increment";

    /** The same application on each web stack: Spring MVC on Tomcat, WebFlux on Reactor Netty. */
    enum Stack {
        MVC(DurableClusterApp.class, "servlet"),
        WEBFLUX(DurableFluxClusterApp.class, "reactive");

        final Class<?> application;
        final String webApplicationType;

        Stack(Class<?> application, String webApplicationType) {
            this.application = application;
            this.webApplicationType = webApplicationType;
        }
    }

    @ParameterizedTest
    @EnumSource(Stack.class)
    void aStoppedNodesTabsFollowTheirSessionsToTheOtherNodeWithEveryChangeItAnswered(Stack stack) throws Exception {
        Map<String, String> properties = Map.of(
                "spring.main.web-application-type", stack.webApplicationType,
                "synccontext.durable.debounce", "10m", // no checkpoint: only the drain's final write can keep a change
                "synccontext.shutdown-timeout", SHUTDOWN_TIMEOUT.toSeconds() + "s",
                "synccontext.live.shutdown-pace", String.valueOf(PACE),
                "logging.level.dev.synccontext", "info");
        int portA = FreePorts.next();
        int portB = FreePorts.next();
        long started = System.nanoTime();
        try (RedisServer redis = RedisServer.start();
                Background<ChildNode> startingA = Background.start(() -> ChildNode.start(stack.application,
                        "node-a", portA, redis.port, "default", "durable-tabs", properties));
                Background<ChildNode> startingB = Background.start(() -> ChildNode.start(stack.application,
                        "node-b", portB, redis.port, "default", "durable-tabs", properties));
                Nginx nginx = Nginx.start(Nginx.Balancing.AFFINITY, List.of(portA, portB));
                SseTabs crowd = new SseTabs(nginx.port)) {
            ChildNode nodeA = startingA.get();
            startingB.get();
            List<SseTabs.Tab> tabs = sessions(nginx.port, INCREMENT, TABS);
            Map<String, List<SseTabs.Tab>> byNode = openByNode(crowd, tabs);
            List<SseTabs.Tab> onA = byNode.getOrDefault("node-a", List.of());
            List<SseTabs.Tab> onB = byNode.getOrDefault("node-b", List.of());
            assertThat(onA).as("tabs on node-a").hasSizeGreaterThanOrEqualTo(TABS / 5);
            assertThat(onB).as("tabs on node-b").hasSizeGreaterThanOrEqualTo(TABS / 5);

            incrementAll(nginx.port, INCREMENT, tabs, 2);
            await().atMost(Duration.ofSeconds(30)).until(() -> tabs.stream().allMatch(t -> lastCount(t.stream(0)) == 2));
            Map<SseTabs.Tab, String> lastSeen = new HashMap<>();
            tabs.forEach(tab -> lastSeen.put(tab, tab.lastEventId));

            long sigterm = System.nanoTime();
            nodeA.terminate();
            assertThat(nodeA.awaitExit(SHUTDOWN_TIMEOUT.plusSeconds(20))).as("node-a exited; its log:%n%s",
                    nodeA.logText()).isTrue();
            long exitMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - sigterm);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(onA)
                    .as("node-a's tabs, each with a second stream that has its first event or ended; node-b's log:%n%s",
                            startingB.get().logText())
                    .allSatisfy(t -> assertThat(settled(t, 1)).as("%s", t).isTrue()));

            for (SseTabs.Tab tab : onA) {
                SseTabs.Stream first = tab.stream(0);
                assertThat(first.goingAwayAt).as("a tab of node-a got going-away: %s", tab).isPositive();
                assertThat(tab.streams).as("one reconnect: %s", tab).hasSize(2);
                SseTabs.Stream second = tab.stream(1);
                assertThat(second.status).as("the reconnect's answer: %s", tab).isEqualTo(200);
                SseTabs.Event snapshot = second.first();
                assertThat(snapshot.name()).as("a snapshot: %s", tab).isEqualTo("snapshot");
                assertThat(node(snapshot)).isEqualTo("node-b");
                assertThat(count(snapshot)).as("every change node-a answered, restored on node-b: %s", tab)
                        .isEqualTo(2);
                assertThat(epoch(snapshot.id())).as("node-b's channel has its own epoch")
                        .isNotEqualTo(epoch(lastSeen.get(tab)));
            }
            for (SseTabs.Tab tab : onB) {
                assertThat(tab.streams).as("a tab of node-b kept its stream: %s", tab).hasSize(1);
            }
            String statsB = stats(portB);
            assertThat(stat(statsB, "handOffsRequested")).as("node-b never waited for node-a: %s", statsB).isZero();
            assertThat(stat(statsB, "handOffTimeouts")).as("%s", statsB).isZero();
            assertThat(stat(statsB, "restoreHits")).as("node-a's sessions restored on node-b: %s", statsB)
                    .isEqualTo(onA.size());

            incrementAll(nginx.port, INCREMENT, tabs, 3);
            await().atMost(Duration.ofSeconds(30)).until(() -> tabs.stream().allMatch(t -> lastCount(t.last()) == 3));
            assertThat(crowd.failure()).isNull();
            Matcher report = Pattern.compile("Shutdown drain: Report\\[.*").matcher(nodeA.logText());
            System.out.printf("[figure] durable tabs, %s: node-a %d tabs, node-b %d; node-a exit %d ms after SIGTERM;"
                    + " node-b %s; node-a %s; whole test %d ms%n", stack, onA.size(), onB.size(), exitMillis, statsB,
                    report.find() ? report.group() : "(no drain report)",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        }
        assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList())
                .as("child processes left (node JVMs, nginx, redis-server)").isEmpty();
    }

    private static String stats(int port) throws Exception {
        HttpResponse<String> response = DurableLoad.HTTP.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/durable/stats")).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return response.body();
    }

    private static long stat(String stats, String name) {
        Matcher matcher = Pattern.compile("\"" + name + "\":(\\d+)").matcher(stats);
        assertThat(matcher.find()).as("stat %s in %s", name, stats).isTrue();
        return Long.parseLong(matcher.group(1));
    }
}
