package dev.synccontext.autoconfigure.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.health.actuate.endpoint.HealthEndpointGroups;

/**
 * With the health contributor on and Kubernetes probes on, the executor's health is part of
 * {@code /actuator/health} but not of the readiness (or liveness) group: a saturated executor must not take
 * an instance out of its load balancer by default (its sessions would move to nodes that hold none of their
 * state); it shows on the overall status and its alert. The groups' own responses show no components unless
 * configured, and configuring {@code management.endpoint.health.group.readiness.*} would make the group the
 * application's, so membership is read from the groups Boot built for these very responses.
 */
@OnRandomPort(classes = HealthOutOfReadinessHttpTest.App.class,
        properties = { "synccontext.health.enabled=true", "management.endpoint.health.probes.enabled=true",
                "management.endpoint.health.show-details=always", "management.endpoints.web.exposure.include=health" })
class HealthOutOfReadinessHttpTest {

    private static final String EXECUTOR = "syncContextExecutor";

    @Autowired
    HealthEndpointGroups groups;

    @Test
    void theExecutorsHealthIsInTheOverallHealthButNotInTheReadinessGroup(Browser browser) {
        HttpResponse<String> health = browser.get("/actuator/health");
        assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
        assertThat(health.body()).as("the overall health").contains("\"" + EXECUTOR + "\"", "\"readinessState\"");
        HttpResponse<String> readiness = browser.get("/actuator/health/readiness");
        assertThat(readiness.statusCode()).as("the readiness probe answers: %s", readiness.body()).isEqualTo(200);

        assertThat(groups.getNames()).as("the probes' groups").contains("readiness", "liveness");
        assertThat(groups.getPrimary().isMember(EXECUTOR)).as("in the overall health").isTrue();
        assertThat(groups.get("readiness").isMember("readinessState")).as("the premise: readiness has its state").isTrue();
        assertThat(groups.get("readiness").isMember(EXECUTOR)).as("in the readiness group").isFalse();
        assertThat(groups.get("liveness").isMember(EXECUTOR)).as("in the liveness group").isFalse();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
    }
}
