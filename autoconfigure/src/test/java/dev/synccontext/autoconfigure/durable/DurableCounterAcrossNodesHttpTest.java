package dev.synccontext.autoconfigure.durable;

import static dev.synccontext.autoconfigure.durable.DurableNodes.browser;
import static dev.synccontext.autoconfigure.durable.DurableNodes.post;
import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.spring.durable.InMemoryStateStore;
import dev.synccontext.spring.durable.session.DurableContexts;
import dev.synccontext.spring.session.SessionContexts;
import dev.synccontext.testing.Browser;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two nodes ({@link DurableNodes}) share one state store and one session repository, as two instances behind a
 * balancer share Redis: a session counts to 5 on node A, node A stops gracefully, and the same session (its
 * cookie) counts on from 6 on node B. The premise: a bean without {@code @Durable} starts again at 1 on node B.
 */
class DurableCounterAcrossNodesHttpTest {

    private final DurableNodes nodes = new DurableNodes();

    @AfterEach
    void stopNodes() {
        nodes.close();
    }

    @Test
    void aDurableCounterContinuesOnAnotherNodeAfterAGracefulStop() {
        ConfigurableApplicationContext nodeA = start();
        Browser browser = countToFive(nodeA, "/counter");
        DurableContexts durableA = nodeA.getBean(DurableContexts.class);
        nodeA.close();
        String afterA = "node A wrote " + durableA.counters().snapshotsWritten() + " snapshot(s), restore misses "
                + durableA.counters().restoreMisses() + ", store sessions "
                + ((InMemoryStateStore) nodes.store()).sessionCount();

        ConfigurableApplicationContext nodeB = start();
        List<String> onB = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            onB.add(post(browser, nodeB, "/counter"));
        }

        DurableContexts durableB = nodeB.getBean(DurableContexts.class);
        assertThat(onB).as("the same session on node B (" + afterA + "; node B: hand-offs "
                + nodeB.getBean(SessionContexts.class).handoffs() + ", restore hits "
                + durableB.counters().restoreHits() + ", misses " + durableB.counters().restoreMisses() + ")")
                .containsExactly("6", "7", "8", "9", "10");
        assertThat(durableB.counters().restoreHits()).isEqualTo(1);
    }

    @Test
    void withoutDurableTheCounterStartsAgainOnAnotherNode() {
        ConfigurableApplicationContext nodeA = start();
        Browser browser = countToFive(nodeA, "/plain");
        nodeA.close();

        ConfigurableApplicationContext nodeB = start();

        assertThat(post(browser, nodeB, "/plain")).as("a node-local bean restarts").isEqualTo("1");
    }

    /** A new session's browser on {@code node}, having posted {@code path} five times, answered 1 to 5. */
    private static Browser countToFive(ConfigurableApplicationContext node, String path) {
        Browser browser = browser(node);
        for (int i = 1; i <= 5; i++) {
            assertThat(browser.post(path).body()).isEqualTo(String.valueOf(i));
        }
        return browser;
    }

    private ConfigurableApplicationContext start() {
        return nodes.start("synccontext.durable.debounce=50ms");
    }
}
