package dev.synccontext.autoconfigure.durable;

import static dev.synccontext.autoconfigure.durable.DurableNodes.browser;
import static dev.synccontext.autoconfigure.durable.DurableNodes.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.spring.durable.session.DurableContexts;
import dev.synccontext.testing.Browser;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The durable meters and the endpoint's {@code durable} section after real events: two nodes
 * ({@link DurableNodes}) share one state store and one session repository, and one session moves between them
 * over HTTP. Each node's meter binder is bound to a registry of its own and read after the events that should
 * move it.
 */
class DurableMetersHttpTest {

    private final DurableNodes nodes = new DurableNodes();

    @AfterEach
    void stopNodes() {
        nodes.close();
    }

    @Test
    void handOffsAreCountedByCauseAndTheEndpointShowsTheOwner() throws Exception {
        ConfigurableApplicationContext nodeA = start();
        ConfigurableApplicationContext nodeB = start();
        MeterRegistry metersA = meters(nodeA);
        MeterRegistry metersB = meters(nodeB);
        Browser browser = browser(nodeA);
        for (int i = 1; i <= 3; i++) {
            assertThat(browser.post("/counter").body()).isEqualTo(String.valueOf(i));
        }
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                counter(metersA, "synccontext.durable.snapshots.written")).as("a's debounced snapshot").isPositive());
        assertThat(counter(metersA, "synccontext.durable.snapshot.bytes")).isPositive();
        assertThat(counter(metersA, "synccontext.durable.restores.miss")).as("a new session").isEqualTo(1);

        assertThat(post(browser, nodeB, "/counter")).as("b asked a, a handed over").isEqualTo("4");
        assertThat(handOffs(metersB, "no-affinity")).as("a was alive and answered").isEqualTo(1);
        assertThat(handOffs(metersB, "deploy")).isZero();
        assertThat(counter(metersB, "synccontext.durable.handoffs.requested")).isEqualTo(1);
        assertThat(counter(metersB, "synccontext.durable.restores.hit")).isEqualTo(1);
        assertThat(counter(metersA, "synccontext.durable.handoffs.given")).isEqualTo(1);
        FunctionTimer waits = metersB.get("synccontext.durable.lease.waits").functionTimer();
        assertThat(waits.count()).as("one wait for a's lease").isEqualTo(1);
        assertThat(waits.totalTime(java.util.concurrent.TimeUnit.NANOSECONDS)).isPositive();

        nodeB.close(); // graceful: the final snapshot, then the release
        assertThat(post(browser, nodeA, "/counter")).as("a restores b's final snapshot").isEqualTo("5");
        assertThat(handOffs(metersA, "deploy")).as("taken from a released record").isEqualTo(1);
        assertThat(counter(metersA, "synccontext.durable.restores.hit")).isEqualTo(1);
        assertThat(metersA.get("synccontext.durable.sessions.owned").gauge().value()).isEqualTo(1);
        assertThat(metersA.get("synccontext.durable.store.reachable").gauge().value()).isEqualTo(1);

        JsonNode durable = endpoint(nodeA).path("durable");
        assertThat(durable.path("node").asString()).isEqualTo(nodeA.getBean(DurableContexts.class).nodeId());
        assertThat(durable.path("leaseLive").asBoolean()).isTrue();
        assertThat(durable.path("leaseEpoch").asLong()).isPositive();
        assertThat(durable.path("ownedSessions").asInt()).isEqualTo(1);
        assertThat(durable.path("store").path("type").asString()).isEqualTo("InMemoryStateStore");
        assertThat(durable.path("store").path("reachable").asBoolean()).isTrue();
        assertThat(durable.path("counters").path("handOffs").path("deploy").asLong()).isEqualTo(1);
        assertThat(durable.path("counters").path("restoreHits").asLong()).isEqualTo(1);
    }

    @Test
    void aSnapshotOverTheBudgetIsCountedNotWrittenAndTheLastStoredStateStands() {
        ConfigurableApplicationContext node = start("synccontext.durable.size-budget=300B");
        MeterRegistry meters = meters(node);
        Browser browser = browser(node);
        assertThat(browser.post("/counter").body()).isEqualTo("1");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                counter(meters, "synccontext.durable.snapshots.written")).isEqualTo(1));

        assertThat(browser.post("/note?add=" + "x".repeat(400)).body()).as("the call itself succeeds").isEqualTo("400");

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(
                counter(meters, "synccontext.durable.snapshots.over.budget")).isEqualTo(1));
        assertThat(rejected(meters, "codec")).isEqualTo(1);
        assertThat(counter(meters, "synccontext.durable.snapshots.written")).as("nothing over the budget written")
                .isEqualTo(1);
        assertThat(rejected(meters, "stale")).isZero();
    }

    private ConfigurableApplicationContext start(String... properties) {
        List<String> all = new ArrayList<>(List.of("synccontext.durable.debounce=20ms",
                "management.endpoints.web.exposure.include=synccontext"));
        all.addAll(List.of(properties));
        return nodes.start(all.toArray(String[]::new));
    }

    /** The node's durable meter binder, bound to a registry of the test's own. */
    private static MeterRegistry meters(ConfigurableApplicationContext node) {
        MeterRegistry registry = new SimpleMeterRegistry();
        node.getBean("syncContextDurableMeterBinder", MeterBinder.class).bindTo(registry);
        return registry;
    }

    private static double counter(MeterRegistry registry, String name) {
        return registry.get(name).functionCounter().count();
    }

    private static double handOffs(MeterRegistry registry, String cause) {
        return registry.get("synccontext.durable.handoffs").tag("cause", cause).functionCounter().count();
    }

    private static double rejected(MeterRegistry registry, String reason) {
        return registry.get("synccontext.durable.writes.rejected").tag("reason", reason).functionCounter().count();
    }

    private static JsonNode endpoint(ConfigurableApplicationContext node) {
        HttpResponse<String> reply = browser(node).get("/actuator/synccontext");
        assertThat(reply.statusCode()).as(reply.body()).isEqualTo(200);
        return JsonMapper.builder().build().readTree(reply.body());
    }
}
