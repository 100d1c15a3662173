package dev.synccontext.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.RendererSyncContext;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * WebFlux on reactive Spring Session Data Redis (indexed repository), two nodes: the {@code WebSession}
 * holds the same small handle, a session continues across nodes, {@code changeSessionId()} keeps the
 * context, and a session invalidated on node A has its context on node B released: by reactive Spring
 * Session's destroyed event when it reaches node B (it did in some runs and not in others), else by
 * idle eviction (5 s here). The test prints which.
 */
class ReactiveClusterTest extends TwoNodeCluster {

    ReactiveClusterTest() {
        super(ReactiveClusterApp.class, "indexed", Map.of("spring.main.web-application-type", "reactive",
                "synccontext.session.idle-timeout", "5s"));
    }

    @Test
    void aWebSessionHoldsOnlyTheHandleAndContinuesOnTheOtherNode() {
        Client alice = new Client();
        for (int i = 1; i <= 3; i++) {
            Client.Reply reply = alice.post(nodeA.port, "/increment").asserted200();
            assertThat(reply.body()).isEqualTo(String.valueOf(i));
        }
        Client.Reply onB = alice.post(nodeB.port, "/increment");
        assertThat(onB.body()).as("node-b continues the session's state").isEqualTo("4");
        assertThat(nodeB.sessions().handoffs()).isPositive();

        Map<String, byte[]> hash = redisClient.hash(namespace + ":sessions:" + alice.sessionCookie());
        assertThat(new TreeSet<>(hash.keySet())).isEqualTo(new TreeSet<>(Set.of("creationTime", "lastAccessedTime",
                "maxInactiveInterval", "sessionAttr:count", TwoNodeClusterTest.HANDLE_FIELD)));
        assertThat(TwoNodeClusterTest.handleIn(hash)).matches("[A-Za-z0-9_-]{16}@node-b");
        alice.post(nodeB.port, "/logout");
    }

    @Test
    void changingTheWebSessionIdKeepsTheSameContext() {
        Client bob = new Client();
        String before = bob.get(nodeA.port, "/context").body();
        String idBefore = bob.sessionCookie();
        Client.Reply afterLogin = bob.post(nodeA.port, "/login").asserted200();
        assertThat(bob.sessionCookie()).isNotEqualTo(idBefore);
        assertThat(afterLogin.body()).isEqualTo(before);
        assertThat(bob.get(nodeA.port, "/context").body()).isEqualTo(before);
        bob.post(nodeA.port, "/logout");
    }

    @Test
    void invalidatingAWebSessionOnNodeAReleasesItsContextOnNodeB() throws Exception {
        Client carol = new Client();
        assertThat(carol.post(nodeB.port, "/increment").ok()).isTrue();
        String handle = TwoNodeClusterTest.handleIn(redisClient.hash(namespace + ":sessions:" + carol.sessionCookie()));
        RendererSyncContext onB = nodeB.sessions().find(handle).orElseThrow();
        assertThat(carol.post(nodeA.port, "/increment").ok()).isTrue();
        long eventsBefore = nodeB.sessions().endedReleases();
        try (CloseWatcher watcher = new CloseWatcher()) {
            watcher.watch(onB);
            long ended = System.nanoTime();
            assertThat(carol.post(nodeA.port, "/logout").ok()).isTrue();
            long closed = watcher.closedAt(onB, Duration.ofSeconds(30));
            boolean byEvent = nodeB.sessions().endedReleases() > eventsBefore;
            System.out.printf("[figure] WebFlux, reactive indexed repository: node-b closed the context %.1f ms after"
                    + " the session was invalidated on node-a, %s%n", (closed - ended) / 1e6,
                    byEvent ? "by Spring Session's destroyed event" : "by idle eviction (5 s; no destroyed event reached node-b)");
        }
    }
}
