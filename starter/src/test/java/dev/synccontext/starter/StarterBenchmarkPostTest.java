package dev.synccontext.starter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.testing.Browser;
import dev.synccontext.testing.OnRandomPort;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The starter brings {@code synccontext-scenarios}, so the endpoint's benchmark POST works out of the
 * box once the application allows it ({@code management.endpoint.synccontext.access=unrestricted}).
 */
@OnRandomPort(classes = StarterBenchmarkPostTest.App.class,
        properties = { "management.endpoints.web.exposure.include=synccontext",
                "management.endpoint.synccontext.access=unrestricted" })
class StarterBenchmarkPostTest {

    @Test
    void withAccessUnrestrictedThePostRunsAScenario(Browser admin) {
        HttpResponse<String> run = admin.postJson("/actuator/synccontext",
                "{\"scenarios\":\"InvokeAsyncReady\",\"iterations\":1,\"warmups\":0}");
        assertThat(run.statusCode()).as(run.body()).isEqualTo(200);
        assertThat(run.body()).contains("\"rows\"").contains("\"method\":\"InvokeAsyncReady\"");
    }

    @SpringBootApplication
    static class App {
    }
}
