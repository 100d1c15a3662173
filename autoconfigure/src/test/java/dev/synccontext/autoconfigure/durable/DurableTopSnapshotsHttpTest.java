package dev.synccontext.autoconfigure.durable;

import static dev.synccontext.autoconfigure.durable.DurableNodes.browser;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.synccontext.spring.durable.session.DurableContexts;
import dev.synccontext.spring.durable.session.SnapshotSize;
import dev.synccontext.testing.Browser;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code top.durableSnapshots} of {@code /actuator/synccontext} over real HTTP ({@link DurableNodes}, one node): two
 * sessions hold durable state of different size; the larger is listed first, with the bytes the store holds for it
 * and its beans' shares, behind the endpoint's show-details switch. The size meter records every write.
 */
class DurableTopSnapshotsHttpTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    /** The beans' names: {@link DurableApp} imports them by class. */
    private static final String COUNTER = DurableApp.Counter.class.getName();
    private static final String NOTE = DurableApp.Note.class.getName();

    private final DurableNodes nodes = new DurableNodes();

    @AfterEach
    void stopNodes() {
        nodes.close();
    }

    @Test
    void theSessionWithTheLargerSnapshotIsListedFirstWithItsBytesAndItsBeansShares() {
        ConfigurableApplicationContext node = start("synccontext.endpoint.show-details=always");
        MeterRegistry meters = new SimpleMeterRegistry();
        node.getBean("syncContextDurableMeterBinder", MeterBinder.class).bindTo(meters);
        Browser small = browser(node);
        Browser large = browser(node);
        assertThat(small.post("/counter").body()).isEqualTo("1");
        assertThat(large.post("/counter").body()).isEqualTo("1");
        assertThat(large.post("/note?add=" + "x".repeat(400)).body()).isEqualTo("400");

        // Both sessions' last snapshots written: the large one's holds the note.
        JsonNode listed = await().atMost(WAIT).until(() -> endpoint(node).path("top").path("durableSnapshots"),
                top -> top.size() == 2 && top.get(0).path("beans").has(NOTE)
                        && !top.get(0).path("pending").asBoolean() && !top.get(1).path("pending").asBoolean());

        JsonNode first = listed.get(0);
        JsonNode second = listed.get(1);
        assertThat(first.path("bytes").asInt()).as("largest first: %s", listed)
                .isGreaterThan(second.path("bytes").asInt());
        for (JsonNode entry : listed) {
            String session = entry.path("session").asString();
            assertThat(entry.path("bytes").asInt()).as("%s: the bytes the store holds for it", entry)
                    .isEqualTo(nodes.store().read(session).orElseThrow().bytes().length);
            assertThat(entry.path("context").asString()).as("%s: its context", entry).isNotBlank();
            assertThat(entry.path("lastWriteAgoMillis").isNumber()).as("%s: written from this node", entry).isTrue();
            assertThat(entry.path("ageMillis").asLong()).isNotNegative();
        }
        assertThat(first.path("context").asString()).isNotEqualTo(second.path("context").asString());
        assertThat(first.path("beans").path(NOTE).asInt()).as("the note's share: %s", first).isGreaterThan(400);
        assertThat(first.path("beans").path(COUNTER).asInt()).isPositive();
        assertThat(first.path("beans").path(NOTE).asInt() + first.path("beans").path(COUNTER).asInt())
                .as("the shares fit in the whole").isLessThan(first.path("bytes").asInt());
        assertThat(second.path("beans").propertyNames()).as("the small session touched the counter only")
                .containsExactly(COUNTER);

        DistributionSummary sizes = meters.get("synccontext.durable.snapshot.size").summary();
        double written = meters.get("synccontext.durable.snapshots.written").functionCounter().count();
        assertThat(sizes.count()).as("one size recorded per snapshot written").isEqualTo((long) written);
        assertThat(sizes.max()).as("the largest write").isEqualTo(first.path("bytes").asDouble());
    }

    @Test
    void anAnonymousCallerSeesNoSessionsWithoutTheDetails() {
        ConfigurableApplicationContext node = start(); // show-details: when-authorized, and nobody is
        Browser session = browser(node);
        assertThat(session.post("/note?add=" + "x".repeat(100)).body()).isEqualTo("100");
        await().atMost(WAIT).until(() -> endpoint(node).path("durable").path("counters").path("snapshotsWritten")
                .asLong() > 0);

        HttpResponse<String> reply = browser(node).get("/actuator/synccontext");
        JsonNode overview = JsonMapper.builder().build().readTree(reply.body());
        assertThat(overview.path("detailsShown").asBoolean()).isFalse();
        assertThat(overview.has("top") && !overview.get("top").isNull()).as("top lists: %s", reply.body()).isFalse();
        List<SnapshotSize> held = node.getBean(DurableContexts.class).largestSnapshots(10);
        assertThat(held).as("the node holds the session's snapshot").hasSize(1);
        assertThat(reply.body()).as("neither the list nor the session's handle in the answer")
                .doesNotContain("durableSnapshots").doesNotContain(held.get(0).session());
    }

    private ConfigurableApplicationContext start(String... properties) {
        String[] all = new String[properties.length + 2];
        all[0] = "synccontext.durable.debounce=20ms";
        all[1] = "management.endpoints.web.exposure.include=synccontext";
        System.arraycopy(properties, 0, all, 2, properties.length);
        return nodes.start(all);
    }

    private static JsonNode endpoint(ConfigurableApplicationContext node) {
        HttpResponse<String> reply = browser(node).get("/actuator/synccontext");
        assertThat(reply.statusCode()).as(reply.body()).isEqualTo(200);
        return JsonMapper.builder().build().readTree(reply.body());
    }
}
