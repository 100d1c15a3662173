package dev.synccontext.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * Spring Session's default Redis repository publishes no session events, so each node finds the
 * contexts of ended sessions by idle eviction ({@code synccontext.session.idle-timeout}, 2 s here).
 * Also the load-balancer tests (T5): real nginx in front of both nodes, first with session affinity,
 * then round robin.
 */
@ExtendWith(OutputCaptureExtension.class)
class DefaultRepositoryClusterTest extends TwoNodeClusterTest {

    DefaultRepositoryClusterTest() {
        super("default", Map.of("synccontext.session.idle-timeout", ClusterApp.SHORT_IDLE.toString()), false);
    }

    @Test
    void throughNginxWithAffinityEverySessionStaysOnOneNodeThenRoundRobinSplitsAreCountedAndWarned(CapturedOutput output) {
        long splitsBefore = nodeA.sessions().splits() + nodeB.sessions().splits();
        int sessions = 40;
        int requests = 10;
        Set<String> nodesUsed = new HashSet<>();
        try (Nginx nginx = Nginx.start(Nginx.Balancing.AFFINITY, List.of(nodeA.port, nodeB.port))) {
            for (int s = 0; s < sessions; s++) {
                Client client = new Client().withRoute();
                Set<String> nodes = new HashSet<>();
                for (int r = 1; r <= requests; r++) {
                    Client.Reply reply = client.post(nginx.port, "/increment");
                    assertThat(reply.status()).as("session %d request %d: %s", s, r, reply.body()).isEqualTo(200);
                    assertThat(reply.body()).isEqualTo(String.valueOf(r));
                    nodes.add(reply.node());
                }
                assertThat(nodes).as("session %d's nodes with affinity", s).hasSize(1);
                nodesUsed.addAll(nodes);
            }
        }
        long splitsWithAffinity = nodeA.sessions().splits() + nodeB.sessions().splits() - splitsBefore;
        System.out.printf("[figure] nginx hash $cookie_route consistent: %d sessions x %d requests, nodes used %s,"
                + " splits %d%n", sessions, requests, nodesUsed, splitsWithAffinity);
        assertThat(nodesUsed).as("the hash spreads sessions over both nodes").containsExactlyInAnyOrder("node-a", "node-b");
        assertThat(splitsWithAffinity).as("splits with session affinity").isZero();

        List<String> seen = new ArrayList<>();
        try (Nginx nginx = Nginx.start(Nginx.Balancing.ROUND_ROBIN, List.of(nodeA.port, nodeB.port))) {
            for (int s = 0; s < 10; s++) {
                Client client = new Client();
                for (int r = 1; r <= 6; r++) {
                    Client.Reply reply = client.post(nginx.port, "/increment").asserted200();
                    seen.add(reply.node());
                }
            }
        }
        long splitsRoundRobin = nodeA.sessions().splits() + nodeB.sessions().splits() - splitsBefore - splitsWithAffinity;
        System.out.printf("[figure] nginx round robin: 10 sessions x 6 requests: splits counted %d (hand-offs %d)%n",
                splitsRoundRobin, nodeA.sessions().handoffs() + nodeB.sessions().handoffs());
        assertThat(new HashSet<>(seen)).containsExactlyInAnyOrder("node-a", "node-b");
        assertThat(splitsRoundRobin).as("round robin moves live sessions between nodes: splits").isPositive();
        assertThat(output.getOut() + output.getErr()).as("the split warning names the fix")
                .contains("(a split;").contains("session affinity");
        String endpoint = new Client().get(nodeA.port, "/actuator/synccontext").body();
        assertThat(endpoint).contains("\"node\":\"node-a\"").contains("\"splits\":");
        String scrape = new Client().get(nodeA.port, "/actuator/prometheus").body();
        assertThat(scrape).contains("synccontext_session_splits_total").contains("synccontext_session_handoffs_total");
    }
}
