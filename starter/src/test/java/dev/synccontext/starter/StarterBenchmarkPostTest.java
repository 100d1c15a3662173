package dev.synccontext.starter;

import static org.assertj.core.api.Assertions.assertThat;

import dev.synccontext.testing.Browser;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The starter brings {@code synccontext-scenarios}, so the endpoint's benchmark POST works out of the
 * box once the application allows it ({@code management.endpoint.synccontext.access=unrestricted}).
 */
@SpringBootTest(classes = StarterBenchmarkPostTest.App.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "management.endpoints.web.exposure.include=synccontext",
                "management.endpoint.synccontext.access=unrestricted" })
class StarterBenchmarkPostTest {

    @LocalServerPort
    int port;

    @Test
    void withAccessUnrestrictedThePostRunsAScenario() {
        HttpResponse<String> run = new Browser(port).postJson("/actuator/synccontext",
                "{\"scenarios\":\"InvokeAsyncReady\",\"iterations\":1,\"warmups\":0}");
        assertThat(run.statusCode()).as(run.body()).isEqualTo(200);
        assertThat(run.body()).contains("\"rows\"").contains("\"method\":\"InvokeAsyncReady\"");
    }

    @SpringBootApplication
    static class App {
    }
}
