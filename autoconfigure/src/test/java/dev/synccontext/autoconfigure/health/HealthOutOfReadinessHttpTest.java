package dev.synccontext.autoconfigure.health;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.testing.Browser;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * With the health contributor on and Kubernetes probes on, the executor's health is part of
 * {@code /actuator/health} but not of the readiness group: a saturated executor must not take an instance
 * out of its load balancer by default (its sessions would move to nodes that hold none of their state),
 * only show on the overall status and its alerts.
 */
@SpringBootTest(classes = HealthOutOfReadinessHttpTest.App.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "synccontext.health.enabled=true", "management.endpoint.health.probes.enabled=true",
                "management.endpoint.health.show-details=always", "management.endpoints.web.exposure.include=health" })
class HealthOutOfReadinessHttpTest {

    @LocalServerPort
    int port;

    @Test
    void theExecutorsHealthIsInTheOverallHealthButNotInTheReadinessGroup() {
        Browser browser = new Browser(port);
        HttpResponse<String> health = browser.get("/actuator/health");
        assertThat(health.statusCode()).as(health.body()).isEqualTo(200);
        assertThat(health.body()).as("the overall health").contains("\"syncContextExecutor\"", "\"readinessState\"");

        HttpResponse<String> readiness = browser.get("/actuator/health/readiness");
        assertThat(readiness.statusCode()).as(readiness.body()).isEqualTo(200);
        assertThat(readiness.body()).as("the readiness group")
                .contains("\"status\":\"UP\"", "\"readinessState\"") // its components are shown
                .doesNotContain("syncContext");

        HttpResponse<String> liveness = browser.get("/actuator/health/liveness");
        assertThat(liveness.statusCode()).as(liveness.body()).isEqualTo(200);
        assertThat(liveness.body()).as("the liveness group").doesNotContain("syncContext");
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
    }
}
